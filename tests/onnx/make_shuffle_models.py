#!/usr/bin/python3
"""Writes tests/onnx/data/shuffle_blocks.onnx (checked against numpy by
tests/onnx/onnx_reference.py, see tests/CMakeLists.txt) with Debian's python3-torch and
torchvision: a stem conv, torchvision's ShuffleNet V2 InvertedResidual blocks (one that
downsamples, one that splits its channels in half), whose channel shuffles are
Reshape, Transpose, Reshape, then a 1x1 conv that reads a shuffle, a global pool and a
Linear (biases zeroed: folded BatchNormalizations with their running statistics at the
defaults keep none).

    tests/onnx/make_shuffle_models.py tests/onnx/data
"""
import os
import sys

import torch
from torch import nn
from torchvision.models.shufflenetv2 import InvertedResidual


class ShuffleBlocks(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 24, 3, 2, 1, bias=False), nn.BatchNorm2d(24), nn.ReLU())
        self.blocks = nn.Sequential(InvertedResidual(24, 48, 2), InvertedResidual(48, 48, 1))
        self.last = nn.Sequential(nn.Conv2d(48, 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.fc = nn.Linear(32, 10, bias=False)

    def forward(self, x):
        return self.fc(self.last(self.blocks(self.stem(x))).mean([2, 3]))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data")
    torch.manual_seed(7)
    net = ShuffleBlocks().eval()
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):  # scales that are not 1, means and shifts 0 (no bias),
                m.weight.uniform_(1.3, 2.0)  # keeps the maps tens of steps deep
        net.stem[1].weight.uniform_(0.4, 0.8)  # and the stem's within the int8 range
    torch.onnx.export(net, torch.randn(1, 3, 32, 32), os.path.join(out, "shuffle_blocks.onnx"), opset_version=17)


if __name__ == "__main__":
    main()
