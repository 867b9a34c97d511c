#!/usr/bin/python3
"""Writes tests/onnx/data/class_token_vit.onnx (checked against numpy by
tests/onnx/onnx_reference.py, see tests/CMakeLists.txt) with Debian's python3-torch: a
small ViT as torchvision writes it, a patch-embedding conv, a class token expanded over
the batch and concatenated before the patch tokens, a positional embedding, one
nn.TransformerEncoderLayer and the head on x[:, 0] (biases zeroed except the class token
and the positional embedding, which are constants, not biases).

    tests/onnx/make_token_models.py tests/onnx/data
"""
import os
import sys

import torch
from torch import nn


class ClassTokenVit(nn.Module):
    def __init__(self, d=32, patch=4, image=16):
        super().__init__()
        self.patch = nn.Conv2d(3, d, patch, stride=patch, bias=False)
        self.class_token = nn.Parameter(torch.randn(1, 1, d) * 20)  # as large as the patch tokens: a row of a few steps would
        # leave layernorm only its rounding to normalize
        self.pos = nn.Parameter(torch.randn(1, (image // patch) ** 2 + 1, d) * 5)
        self.encoder = nn.TransformerEncoderLayer(d, 2, 64, dropout=0.0, batch_first=True, norm_first=True)
        self.head = nn.Linear(d, 10, bias=False)

    def forward(self, x):
        t = self.patch(x).flatten(2).transpose(1, 2)
        t = torch.cat([self.class_token.expand(x.shape[0], -1, -1), t], dim=1) + self.pos
        return self.head(self.encoder(t)[:, 0])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data")
    torch.manual_seed(5)
    torch.set_grad_enabled(True)  # nn.MultiheadAttention exports only with autograd on (torch 1.13)
    net = ClassTokenVit().eval()
    with torch.no_grad():
        for name, p in net.named_parameters():
            if name.endswith("bias") and "norm" not in name:
                p.zero_()
        # The residual stream holds the patch tokens at steps of 1: the branches that add to
        # it are scaled to a like size, so that their int8 values are a test, not zeros.
        net.encoder.self_attn.out_proj.weight.mul_(40)
        net.encoder.linear2.weight.mul_(40)
    torch.onnx.export(net, torch.randn(1, 3, 16, 16), os.path.join(out, "class_token_vit.onnx"), opset_version=17)


if __name__ == "__main__":
    main()
