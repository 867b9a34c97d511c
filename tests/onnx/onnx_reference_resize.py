"""ONNX Resize in float64 numpy, as the operator definition gives it (modes nearest and
linear; coordinate_transformation_mode half_pixel, pytorch_half_pixel, asymmetric,
align_corners), for onnx_reference.py."""
import math

import numpy as np
import onnx


def _attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            v = onnx.helper.get_attribute_value(a)
            return v.decode() if isinstance(v, bytes) else v
    return default


def _original(mode, o, scale, length_in, length_out):
    """Output coordinate o in input coordinates (ONNX's x_original)."""
    if mode == "half_pixel":
        return (o + 0.5) / scale - 0.5
    if mode == "pytorch_half_pixel":
        return (o + 0.5) / scale - 0.5 if length_out > 1 else 0.0
    if mode == "align_corners":
        return 0.0 if length_out == 1 else o * (length_in - 1) / (length_out - 1)
    if mode == "asymmetric":
        return o / scale
    raise SystemExit(f"reference: coordinate_transformation_mode {mode} is not evaluated")


def _nearest(x, rounding):
    if rounding == "floor":
        return math.floor(x)
    if rounding == "ceil":
        return math.ceil(x)
    if rounding == "round_prefer_ceil":
        return math.floor(x + 0.5)
    return math.ceil(x - 0.5)  # round_prefer_floor


def _axis(v, axis, length_out, scale, node):
    """Resamples one axis of v to length_out."""
    mode = _attr(node, "coordinate_transformation_mode", "half_pixel")
    length_in = v.shape[axis]
    out = []
    for o in range(length_out):
        x = _original(mode, o, scale, length_in, length_out)
        if _attr(node, "mode", "nearest") == "nearest":
            i = min(max(_nearest(x, _attr(node, "nearest_mode", "round_prefer_floor")), 0), length_in - 1)
            out.append(np.take(v, i, axis=axis))
            continue
        x = min(max(x, 0.0), length_in - 1)
        lo = int(math.floor(x))
        hi = min(lo + 1, length_in - 1)
        out.append(np.take(v, lo, axis=axis) * (1 - (x - lo)) + np.take(v, hi, axis=axis) * (x - lo))
    return np.stack(out, axis=axis)


def resize(node, x):
    """Resize of an [N, C, H, W] value by its sizes (input 3) or scales (input 2)."""
    v = x[0].astype(np.float64)
    if len(x) > 3 and x[3] is not None and len(x[3]):
        sizes = [int(s) for s in x[3]]
        scales = [sizes[i] / v.shape[i] for i in range(4)]
    else:
        scales = [float(s) for s in x[2]]
        sizes = [int(math.floor(v.shape[i] * scales[i])) for i in range(4)]
    for axis in (2, 3):
        v = _axis(v, axis, sizes[axis], scales[axis], node)
    return v
