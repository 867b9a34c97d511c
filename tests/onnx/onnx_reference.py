#!/usr/bin/python3
"""Runs an ONNX model through `npusim run --functional` and compares every layer's int8
tensor with a float64 numpy evaluation of the ONNX graph, op by op.

The reference knows nothing of npusim's layers: it evaluates the graph the way the ONNX
operator definitions say, on the input npusim used (tensors/input.npy, one int8 step =
1). npusim's report names, per layer, the ONNX value its tensor holds and the scale of its
int8 steps (`onnx.value`, `onnx.scale_exponent`); the tensor times 2^scale_exponent is
compared with the reference value. Passes when, for every layer,
  - the RMS error is at most --rms-steps int8 steps of that layer's scale,
  - the largest error is at most --max-steps steps (values beyond the int8 range of the
    scale are compared with the range's end: int8 tensors saturate), and
  - at most --max-saturated of the reference lies beyond that range,
the quantization error budget documented in docs/workload-format.md (ONNX, "Functional
mode: how close").

    tests/onnx/onnx_reference.py --npusim build/npusim --model tests/onnx/data/tiny_transformer.onnx
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_reference_shapes import run_shape_node  # noqa: E402
from onnx_reference_windows import run_window_node  # noqa: E402
from onnx_reference_resize import resize  # noqa: E402

ERF = np.vectorize(math.erf)


def attr(node, name, default=None):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def evaluate(model, feeds):
    """Every value of the graph, by name, as float64 (integers stay integers)."""
    values = dict(feeds)
    for t in model.graph.initializer:
        values[t.name] = numpy_helper.to_array(t)
    for node in model.graph.node:
        x = [values[i] if i else None for i in node.input]
        out = run_shape_node(node, x)
        out = run_node(node, x) if out is None else out
        for name, v in zip(node.output, out if isinstance(out, list) else [out]):
            values[name] = v
    return values


def run_node(node, x):
    op = node.op_type
    windowed = run_window_node(node, x)
    if windowed is not None:
        return windowed
    if op == "Constant":
        return numpy_helper.to_array(attr(node, "value"))
    if op in ("Identity", "Dropout"):
        return x[0]
    if op == "Shape":
        return np.array(x[0].shape, dtype=np.int64)
    if op == "Gather":
        return np.take(x[0], x[1], axis=attr(node, "axis", 0))
    if op == "Slice":
        axes = x[3] if len(x) > 3 and x[3] is not None else range(len(x[1]))
        steps = x[4] if len(x) > 4 and x[4] is not None else [1] * len(x[1])
        index = [slice(None)] * x[0].ndim
        for a, s, e, st in zip(axes, x[1], x[2], steps):
            index[a] = slice(int(s), int(e), int(st))
        return x[0][tuple(index)]
    if op == "Concat":
        return np.concatenate(x, axis=attr(node, "axis"))
    if op == "Unsqueeze":
        return np.expand_dims(x[0], tuple(int(a) for a in (x[1] if len(x) > 1 else attr(node, "axes"))))
    if op == "Squeeze":
        return np.squeeze(x[0], tuple(int(a) for a in (x[1] if len(x) > 1 else attr(node, "axes"))))
    if op == "Reshape":
        shape = [int(d) if d != 0 else x[0].shape[i] for i, d in enumerate(x[1])]
        return x[0].reshape(shape)
    if op == "Transpose":
        return np.transpose(x[0], attr(node, "perm"))
    if op == "Cast":
        return x[0].astype(np.float64 if attr(node, "to") in (1, 11) else np.int64)
    if op in ("Add", "Sub", "Mul", "Div", "Pow"):
        a, b = x
        if op == "Div" and a.dtype.kind == "i" and b.dtype.kind == "i":
            return a // b
        return {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide, "Pow": np.power}[op](
            a.astype(np.float64) if a.dtype.kind == "f" else a, b)
    if op == "Where":
        return np.where(x[0], x[1], x[2])
    if op == "Resize":
        return resize(node, x)
    if op == "Sqrt":
        return np.sqrt(x[0])
    if op == "Erf":
        return ERF(x[0])
    if op == "Relu":
        return np.maximum(x[0], 0)
    if op in ACTIVATIONS:
        return activation(node, x[0])
    if op == "MatMul":
        return np.matmul(x[0], x[1])
    if op == "Gemm":
        b = x[1].T if attr(node, "transB", 0) else x[1]
        return x[0] @ b + (x[2] if len(x) > 2 else 0)
    if op == "Softmax":
        e = np.exp(x[0] - x[0].max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)
    if op == "LayerNormalization":
        mean = x[0].mean(axis=-1, keepdims=True)
        var = ((x[0] - mean) ** 2).mean(axis=-1, keepdims=True)
        y = (x[0] - mean) / np.sqrt(var + attr(node, "epsilon", 1e-5)) * x[1]
        return y + x[2] if len(x) > 2 and x[2] is not None else y
    if op == "Split":
        parts = len(node.output)
        return list(np.split(x[0], parts, axis=attr(node, "axis", 0)))
    if op == "ReduceMean":
        return x[0].mean(axis=tuple(attr(node, "axes")), keepdims=bool(attr(node, "keepdims", 1)))
    raise SystemExit(f"reference: op {op} is not evaluated by this script")


ACTIVATIONS = ("Sigmoid", "HardSigmoid", "HardSwish", "Tanh")


def activation(node, x):
    """The activations as the ONNX operator definitions give them."""
    op = node.op_type
    if op == "Sigmoid":
        return 1 / (1 + np.exp(-x))
    if op == "HardSigmoid":
        return np.clip(attr(node, "alpha", 0.2) * x + attr(node, "beta", 0.5), 0, 1)
    if op == "HardSwish":
        return x * np.clip(x / 6 + 0.5, 0, 1)
    return np.tanh(x)


def normalized(x, epsilon=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + epsilon)


def report_input_exponent(shape):
    """The documented scale of the network input's int8 steps: 1 for images, 1/32 for
    token sequences [N, S, D]."""
    return -5 if len(shape) == 3 else 0


# Layers whose 4-D values are [N, C, H, W] maps: convs, pools and the element-wise
# layers after them (a 4-D value of any other layer is attention's [N, heads, tokens, d]).
MAP_KINDS = ("conv", "depthwise", "pool", "add", "concat", "gather_channels", "relu", "sigmoid", "hardsigmoid", "hardswish", "silu",
             "tanh", "mul", "upsample")


def storage_order(value, kind):
    """A reference value in the order npusim stores its tensor: [N, positions, channels].
    Maps of convs, pools, adds and concats are [N, C, H, W]; attention values [N, heads, tokens, d] (or a
    Split's [1, N, heads, tokens, d]) hold a head's channels as one segment of every
    token's channels."""
    if value.ndim == 5:
        value = value[0]
    if value.ndim == 4:
        value = value.transpose(0, 2, 3, 1) if kind in MAP_KINDS else value.transpose(0, 2, 1, 3)
    return value.reshape(value.shape[0], -1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--npusim", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--config", help="hardware config for npusim run (default: npusim's)")
    p.add_argument("--rms-steps", type=float, default=2.0)
    p.add_argument("--max-steps", type=float, default=16.0)
    p.add_argument("--max-saturated", type=float, default=0.05)
    p.add_argument("--min-spread", type=float, default=4.0,
                   help="steps the reference must reach in every layer (else a weak test)")
    p.add_argument("--calibrate", type=int, help="npusim run --calibrate N: calibrated scales")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "run")
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        command = [args.npusim, "run", "--quiet", "--functional", "--workload", args.model, "--out", out]
        command += ["--config", args.config] if args.config else []
        command += ["--calibrate", str(args.calibrate)] if args.calibrate else []
        subprocess.run(command, check=True, env=env)
        report = json.load(open(os.path.join(out, "report.json")))
        model = onnx.load(args.model)
        shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
        q = np.load(os.path.join(out, "tensors", "input.npy")).astype(np.float64) * 2.0 ** report_input_exponent(shape)
        if len(shape) == 4:  # an image: npusim's input.npy is NHWC, the graph's NCHW
            q = q.reshape(shape[0], shape[2], shape[3], shape[1]).transpose(0, 3, 1, 2)
        values = evaluate(model, {model.graph.input[0].name: q.reshape(shape)})
        worst = 0.0
        for row in report["workload"]["rows"]:
            origin = row.get("onnx")
            if origin is None:
                raise SystemExit(f"layer {row['name']}: the report names no ONNX value")
            step = 2.0 ** origin["scale_exponent"]
            got = np.load(os.path.join(out, "tensors", row["name"] + ".npy")).astype(np.float64) * step
            got = got.reshape(got.shape[0], -1)
            want = values[origin["value"]]
            if origin["before_scale_and_bias"]:  # npusim's tensor is the normalization alone
                want = normalized(values[origin["normalizes"]])
            if want.ndim in (2, 3) and got.shape[0] == 1 and want.shape[0] != 1:
                # nn.MultiheadAttention's [tokens, N, E], [N·heads, tokens, d] and [tokens·N, E]
                # with N = 1: npusim stores the tokens, each with its heads' segments
                want = (want.transpose(1, 0, 2) if want.ndim == 3 else want).reshape(1, -1)
            want = storage_order(want, row["kind"])
            if want.shape != got.shape:
                raise SystemExit(f"layer {row['name']}: shape {got.shape} against the reference's {want.shape}")
            # An int8 tensor saturates: values beyond its range are compared with the bound.
            # A mask's -inf is the int8 minimum by definition, not a saturation.
            saturated = np.mean(((want > 127 * step) | (want < -128 * step)) & np.isfinite(want))
            error = np.abs(got - np.clip(want, -128 * step, 127 * step)) / step
            rms, peak = math.sqrt((error ** 2).mean()), error.max()
            spread = np.abs(want[np.isfinite(want)]).max() / step
            print(f"{row['name']:<28} {row['kind']:<9} scale 2^{origin['scale_exponent']:<3} "
                  f"reference |max| {spread:6.1f} steps, saturated {saturated:6.2%}, "
                  f"error rms {rms:5.2f} max {peak:6.2f} steps")
            if saturated > args.max_saturated:
                raise SystemExit(f"layer {row['name']}: more than {args.max_saturated:.0%} of the reference lies "
                                 f"outside the int8 range of the layer's scale")
            if rms > args.rms_steps or peak > args.max_steps:
                raise SystemExit(f"layer {row['name']}: error beyond the budget ({args.rms_steps} steps rms, "
                                 f"{args.max_steps} max)")
            if spread < args.min_spread:
                raise SystemExit(f"layer {row['name']}: the reference is nearly all zeros at this scale: a weak test")
            worst = max(worst, rms)
        print(f"all {len(report['workload']['rows'])} layers within budget; worst rms {worst:.2f} steps")


if __name__ == "__main__":
    main()
