#!/usr/bin/python3
"""Writes torchvision's ResNet-18 and MobileNetV3-small, random weights (seed 0), at a small
input (1x3xSxS, default 64) as ONNX, for the calibrated-scales comparisons
(docs/workload-format.md, "Calibrated scales"). Debian's python3-torch/-torchvision.

    tests/onnx/export_calibration_models.py OUT_DIR [--size 64]
"""
import argparse
import os

import torch
import torchvision


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--size", type=int, default=64)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in ("resnet18", "mobilenet_v3_small"):
        torch.manual_seed(0)
        model = getattr(torchvision.models, name)().eval()
        x = torch.zeros(1, 3, args.size, args.size)
        torch.onnx.export(model, x, os.path.join(args.out, name + ".onnx"), opset_version=13,
                          input_names=["input"], output_names=["logits"])


if __name__ == "__main__":
    main()
