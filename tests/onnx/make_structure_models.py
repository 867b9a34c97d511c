#!/usr/bin/python3
"""Writes the small models tests/onnx/data/structure_cnn.onnx and packed_qkv_encoder.onnx
(checked against numpy by tests/onnx/onnx_reference.py, see tests/CMakeLists.txt) with
Debian's python3-torch:

  - structure_cnn: ceil-mode MaxPool, a ResNeXt-like grouped conv (group 4) after a 1x1
    conv, a DenseNet-like concat -> BatchNormalization -> ReLU, Inception's
    avg_pool2d(3, 1, padding=1) (exported as Pad + AveragePool, count_include_pad) and a
    Flatten of the 40x6x6 map before a Linear (exported as MatMul);
  - packed_qkv_encoder: a 1-layer nn.TransformerEncoder, whose attention slices one
    packed q, k, v projection (biases zeroed: the requantization has none).

    tests/onnx/make_structure_models.py tests/onnx/data
"""
import os
import sys

import torch
from torch import nn


class StructureCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.pool = nn.MaxPool2d(3, 2, ceil_mode=True)  # 12 -> 6 rows (5 by the floor rule)
        self.reduce = nn.Sequential(nn.Conv2d(16, 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.grouped = nn.Sequential(nn.Conv2d(32, 32, 3, padding=1, groups=4, bias=False), nn.BatchNorm2d(32),
                                     nn.ReLU())
        self.side = nn.Conv2d(16, 8, 1, bias=False)
        self.norm = nn.Sequential(nn.BatchNorm2d(40), nn.ReLU())
        self.avg = nn.AvgPool2d(3, 1, padding=1)
        self.fc = nn.Linear(40 * 6 * 6, 10, bias=False)

    def forward(self, x):
        x = self.pool(self.stem(x))
        y = torch.cat([self.grouped(self.reduce(x)), self.side(x)], 1)
        return self.fc(torch.flatten(self.avg(self.norm(y)), 1))


def structure_cnn():
    net = StructureCnn().eval()
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):  # scales that are not 1, means and shifts 0 (no bias)
                m.weight.uniform_(0.5, 1.5)
                m.running_var.uniform_(0.5, 2.0)
        net.stem[0].weight.mul_(0.3)  # keeps the stem within int8 at the input's scale
    return net, torch.randn(1, 3, 12, 12)


def packed_qkv_encoder():
    layer = nn.TransformerEncoderLayer(64, 4, 128, batch_first=True)
    net = nn.TransformerEncoder(layer, 1).eval()
    with torch.no_grad():
        for name, p in net.named_parameters():
            if name.endswith("bias"):
                p.zero_()
        # npusim's seeded input spans the int8 range (±4 at the sequence scale 2^-5): smaller
        # q, k, v weights keep the projections within int8 at that scale
        net.layers[0].self_attn.in_proj_weight.mul_(0.5)
    return net, torch.randn(1, 16, 64)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data")
    torch.manual_seed(3)
    torch.set_grad_enabled(True)  # nn.MultiheadAttention exports only with autograd on (torch 1.13)
    for name, make in (("structure_cnn", structure_cnn), ("packed_qkv_encoder", packed_qkv_encoder)):
        net, x = make()
        torch.onnx.export(net, x, os.path.join(out, name + ".onnx"), opset_version=17)


if __name__ == "__main__":
    main()
