#!/usr/bin/python3
"""Exports PyTorch models to ONNX for `npusim run --workload M.onnx`.

Random weights, nothing downloaded. Needs Debian's python3-torch, python3-torchvision
and python3-onnx (apt-get install python3-torch python3-torchvision python3-onnx); run
it with /usr/bin/python3 so those packages are found.

    scripts/export_onnx.py resnet50 mobilenet_v2 vit tiny_transformer --out models/
    scripts/export_onnx.py resnet50 --dynamic-batch --out models/   # then --input-shape input=2x3x224x224

To export your own network, build it in export_model() below or import this file and
call export(model, example_input, path): eval mode, constant folding on (so torch folds
BatchNormalization into the convs), opset 17, weights inside the file.
"""
import argparse
import os

import torch
import torchvision

OPSET = 17  # npusim reads opsets 11 to 17 (ONNX 1.12 as packaged by Debian)


class EncoderBlock(torch.nn.Module):
    """Pre-norm transformer block: attention then MLP, each with a residual add.
    Written out (not torch.nn.TransformerEncoderLayer, whose eval-mode fast path has
    no ONNX export) so the graph is plain MatMul, Softmax, LayerNormalization, Erf."""

    def __init__(self, dim, heads, bias=True, mlp_ratio=2):
        super().__init__()
        self.heads = heads
        self.norm1 = torch.nn.LayerNorm(dim, bias=bias) if "bias" in torch.nn.LayerNorm.__init__.__code__.co_varnames \
            else torch.nn.LayerNorm(dim)
        self.qkv = torch.nn.Linear(dim, dim * 3, bias=bias)
        self.proj = torch.nn.Linear(dim, dim, bias=bias)
        self.norm2 = torch.nn.LayerNorm(dim)
        self.fc1 = torch.nn.Linear(dim, dim * mlp_ratio, bias=bias)
        self.fc2 = torch.nn.Linear(dim * mlp_ratio, dim, bias=bias)

    def forward(self, x):
        n, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).reshape(n, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attention = torch.softmax(q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5, dim=-1)
        x = x + self.proj((attention @ v).transpose(1, 2).reshape(n, t, d))
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.norm2(x))))


class TinyViT(torch.nn.Module):
    """A small ViT: 16x16 patches of a 64x64 image, 2 encoder blocks, mean-pooled tokens
    (no class token, so the graph needs no Concat)."""

    def __init__(self, dim=64, depth=2, heads=2, classes=10, patch=16, mlp_ratio=2):
        super().__init__()
        self.patches = torch.nn.Conv2d(3, dim, patch, stride=patch)
        self.blocks = torch.nn.Sequential(*[EncoderBlock(dim, heads, mlp_ratio=mlp_ratio) for _ in range(depth)])
        self.norm = torch.nn.LayerNorm(dim)
        self.head = torch.nn.Linear(dim, classes)

    def forward(self, x):
        x = self.patches(x).flatten(2).transpose(1, 2)  # [n, tokens, dim]
        x = self.norm(self.blocks(x))
        return self.head(x.mean(dim=1))


class TinyTransformer(torch.nn.Module):
    """Two encoder blocks over a [1, 16, 32] token input, 2 heads of 16, no biases (as in
    LLaMA-style models): what npusim's functional mode computes exactly as int8
    (tests/onnx/data/tiny_transformer.onnx, checked by tests/onnx/onnx_reference.py).
    The layer norms' scales are random, so folding them into the next MatMul is tested."""

    def __init__(self, dim=32, depth=2, heads=2):
        super().__init__()
        self.blocks = torch.nn.Sequential(*[EncoderBlock(dim, heads, bias=False) for _ in range(depth)])
        with torch.no_grad():
            for block in self.blocks:
                for norm in (block.norm1, block.norm2):
                    norm.weight.uniform_(0.5, 1.5)

    def forward(self, x):
        return self.blocks(x)


class TinyTransformerWithBiases(torch.nn.Module):
    """TinyTransformer's two blocks with biases in every Linear (PyTorch's default init), as
    nn.TransformerEncoderLayer has them: tests/onnx/data/tiny_transformer_bias.onnx, whose
    biases npusim adds in the requantization (checked by tests/onnx/onnx_reference.py)."""

    def __init__(self, dim=32, depth=2, heads=2):
        super().__init__()
        self.blocks = torch.nn.Sequential(*[EncoderBlock(dim, heads, bias=True) for _ in range(depth)])

    def forward(self, x):
        return self.blocks(x)


class TinyCnnWithBiases(torch.nn.Module):
    """A small CNN whose layers all have biases: conv + BatchNormalization with random running
    statistics (folded into a conv bias), ReLU, max pool, a depthwise conv with its own bias, a
    1x1 conv, a residual add, global average pool and a Linear: tests/onnx/data/tiny_cnn_bias.onnx,
    checked layer by layer against numpy by tests/onnx/onnx_reference.py."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU())
        self.pool = torch.nn.MaxPool2d(2)
        self.depthwise = torch.nn.Sequential(torch.nn.Conv2d(8, 8, 3, padding=1, groups=8), torch.nn.ReLU())
        self.pointwise = torch.nn.Sequential(torch.nn.Conv2d(8, 8, 1), torch.nn.BatchNorm2d(8))
        self.head = torch.nn.Linear(8, 10)
        with torch.no_grad():
            for m in self.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.running_mean.uniform_(-4, 4)
                    m.running_var.uniform_(2, 8)
                    m.weight.uniform_(0.5, 1.5)
                    m.bias.uniform_(-2, 2)

    def forward(self, x):
        x = self.pool(self.stem(x))
        x = torch.relu(x + self.pointwise(self.depthwise(x)))
        return self.head(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1))


def export_model(name):
    """The model and an example input for one of the bundled names."""
    if name == "resnet50":
        return torchvision.models.resnet50(weights=None), torch.randn(1, 3, 224, 224)
    if name == "mobilenet_v2":
        return torchvision.models.mobilenet_v2(weights=None), torch.randn(1, 3, 224, 224)
    if name == "vit":
        return TinyViT(), torch.randn(1, 3, 64, 64)
    if name == "vit_b16":  # ViT-B/16's shape with TinyViT's blocks (torchvision's vit_b_16 does not export)
        return TinyViT(dim=768, depth=12, heads=12, classes=1000, patch=16, mlp_ratio=4), torch.randn(1, 3, 224, 224)
    if name == "vit_tiny":  # the test fixture tests/onnx/data/vit_tiny.onnx
        return TinyViT(dim=32, patch=8), torch.randn(1, 3, 32, 32)
    if name == "tiny_transformer":
        return TinyTransformer(), torch.randn(1, 16, 32)
    if name == "tiny_transformer_bias":
        return TinyTransformerWithBiases(), torch.randn(1, 16, 32)
    if name == "tiny_cnn_bias":
        return TinyCnnWithBiases(), torch.randn(1, 3, 16, 16)
    raise SystemExit(f"unknown model '{name}' (resnet50, mobilenet_v2, vit, vit_b16, vit_tiny, tiny_transformer, "
                     "tiny_transformer_bias, tiny_cnn_bias)")


def export(model, example, path, dynamic_batch=False, opset=OPSET):
    model.eval()
    axes = {"input": {0: "batch"}, "output": {0: "batch"}} if dynamic_batch else None
    with torch.no_grad():
        torch.onnx.export(model, example, path, opset_version=opset, do_constant_folding=True,
                          input_names=["input"], output_names=["output"], dynamic_axes=axes,
                          training=torch.onnx.TrainingMode.EVAL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="+", help="resnet50, mobilenet_v2, vit, vit_b16, vit_tiny, tiny_transformer, "
                                                  "tiny_transformer_bias, tiny_cnn_bias")
    parser.add_argument("--out", default=".", help="directory for <model>.onnx")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random weights")
    parser.add_argument("--dynamic-batch", action="store_true", help="leave the batch dimension dynamic")
    parser.add_argument("--opset", type=int, default=OPSET,
                        help=f"ONNX opset, 11 to 17 (default {OPSET}); below 17 LayerNorm is written out op by op")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.models:
        torch.manual_seed(args.seed)
        model, example = export_model(name)
        suffix = "" if args.opset == OPSET else f"_opset{args.opset}"
        path = os.path.join(args.out, f"{name}{suffix}.onnx")
        export(model, example, path, args.dynamic_batch, args.opset)
        print(f"{path}: {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
