#!/usr/bin/python3
"""Writes the small ONNX graph of npusim's upsampling test (docs/workload-format.md,
"Upsampling") with the onnx helper API, no PyTorch needed; tests/onnx/onnx_reference.py
then compares a functional run with a numpy evaluation of the graph.

    tests/onnx/resize_graphs.py OUT_DIR   # writes resize_head.onnx there

resize_head: a segmentation head as torchvision exports it, on [1, 8, 6, 6] maps: conv ->
Relu -> Resize linear by `sizes` to 12 x 12 (half_pixel, F.interpolate's bilinear) ->
conv -> Resize linear to 17 x 15 (non-integer ratios); beside it an ASPP pooling branch
(GlobalAveragePool -> conv -> Resize of the 1 x 1 map to 6 x 6), a Resize nearest by
`scales` [1, 1, 2, 2] (asymmetric, floor: F.interpolate's nearest) and a Resize linear
with align_corners and one with pytorch_half_pixel.
"""
import os
import sys

import numpy as np
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from activation_graphs import Graph  # noqa: E402


def resize(g, name, x, size=None, scales=None, **attrs):
    inputs = [x, "", ""]
    if size is not None:
        g.inits.append(numpy_helper.from_array(np.array(size, dtype=np.int64), name + ".sizes"))
        inputs.append(name + ".sizes")
    else:
        inputs[2] = g.const(name + ".scales", scales)
    return g.node("Resize", name, inputs, **attrs)


def resize_head(path):
    g = Graph("resize_head", [1, 8, 6, 6])
    linear = {"mode": "linear", "coordinate_transformation_mode": "half_pixel"}
    x = g.node("Relu", "relu", [g.conv("head", "input", 8, 8, 3, spread=1 / 8)])
    x = resize(g, "up2", x, [1, 8, 12, 12], **linear)
    y = resize(g, "up_odd", g.conv("mix", x, 8, 8, 1, spread=1 / 2), [1, 8, 17, 15], **linear)
    p = g.conv("pool_proj", g.node("GlobalAveragePool", "pool", ["input"]), 8, 8, 1, spread=1)
    p = resize(g, "pool_up", p, [1, 8, 6, 6], **linear)
    n = resize(g, "nearest", "input", scales=[1, 1, 2, 2], mode="nearest",
               coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    a = resize(g, "corners", "input", [1, 8, 11, 9], mode="linear", coordinate_transformation_mode="align_corners")
    t = resize(g, "torch_half", "input", [1, 8, 13, 7], mode="linear",
               coordinate_transformation_mode="pytorch_half_pixel")
    g.save(path, [y, p, n, a, t], 13)


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    resize_head(os.path.join(out, "resize_head.onnx"))
