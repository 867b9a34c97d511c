"""The window and per-channel ops of CNNs for tests/onnx/onnx_reference.py, in float64 numpy,
the way the ONNX operator definitions say: Conv (groups, strides, pads, dilations, bias),
MaxPool, AveragePool (count_include_pad 0 or 1, ceil_mode 0 or 1), GlobalAveragePool,
GlobalMaxPool, Pad (constant zeros), Flatten, BatchNormalization (inference) and Clip."""
import numpy as np
from onnx import helper


def attr(node, name, default=None):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def _geometry(node, x, kh, kw):
    """Strides, dilations, pads and the output size; with ceil_mode the last window may hang
    over the padded map, and the pads grow by that overhang (bottom, right)."""
    s = attr(node, "strides", [1, 1])
    d = attr(node, "dilations", [1, 1])
    p = list(attr(node, "pads", [0, 0, 0, 0]))
    ceil = attr(node, "ceil_mode", 0)
    out = []
    for axis, k in ((0, kh), (1, kw)):
        span = x.shape[2 + axis] + p[axis] + p[axis + 2] - d[axis] * (k - 1) - 1
        out.append((-(-span // s[axis]) if ceil else span // s[axis]) + 1)
    return s, d, p, out[0], out[1]


def _overhang(x, p, s, d, kh, kw, ho, wo):
    """How far the last window reaches past the padded map, per axis (ceil_mode only)."""
    return [max(0, (o - 1) * s[a] + d[a] * (k - 1) + 1 - (x.shape[2 + a] + p[a] + p[a + 2]))
            for a, k, o in ((0, kh, ho), (1, kw, wo))]


def _taps(xp, s, d, kh, kw, ho, wo):
    """(ky, kx, the padded input's values under that tap for every output position)."""
    for ky in range(kh):
        for kx in range(kw):
            y0, x0 = ky * d[0], kx * d[1]
            yield ky, kx, xp[:, :, y0:y0 + s[0] * (ho - 1) + 1:s[0], x0:x0 + s[1] * (wo - 1) + 1:s[1]]


def conv(node, x, w, b):
    co, cig, kh, kw = w.shape
    groups = attr(node, "group", 1)
    s, d, p, ho, wo = _geometry(node, x, kh, kw)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])))
    out = np.zeros((x.shape[0], co, ho, wo))
    cog = co // groups
    for g in range(groups):
        xs, ws = xp[:, g * cig:(g + 1) * cig], w[g * cog:(g + 1) * cog]
        for ky, kx, patch in _taps(xs, s, d, kh, kw, ho, wo):
            out[:, g * cog:(g + 1) * cog] += np.einsum("nchw,oc->nohw", patch, ws[:, :, ky, kx])
    return out if b is None else out + b.reshape(1, -1, 1, 1)


def pool(node, x, maximum):
    """Max, or an average over the real positions (count_include_pad: over the padded map,
    never the ceil_mode overhang)."""
    kh, kw = attr(node, "kernel_shape")
    s, d, p, ho, wo = _geometry(node, x, kh, kw)
    extra = _overhang(x, p, s, d, kh, kw, ho, wo)
    pads = ((0, 0), (0, 0), (p[0], p[2] + extra[0]), (p[1], p[3] + extra[1]))
    if maximum:
        taps = [t for _, _, t in _taps(np.pad(x, pads, constant_values=-np.inf), s, d, kh, kw, ho, wo)]
        return np.max(taps, axis=0)
    total = sum(t for _, _, t in _taps(np.pad(x, pads), s, d, kh, kw, ho, wo))
    counted = np.ones((1, 1) + x.shape[2:])
    if attr(node, "count_include_pad", 0):
        counted = np.pad(counted, ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])), constant_values=1)
        pads = ((0, 0), (0, 0), (0, extra[0]), (0, extra[1]))
    ones = np.pad(counted, pads)
    return total / sum(t for _, _, t in _taps(ones, s, d, kh, kw, ho, wo))


def run_window_node(node, x):
    """The node's output, or None when it is not one of these ops."""
    op = node.op_type
    if op == "Conv":
        return conv(node, x[0], x[1], x[2] if len(x) > 2 else None)
    if op in ("MaxPool", "AveragePool"):
        return pool(node, x[0], op == "MaxPool")
    if op in ("GlobalAveragePool", "GlobalMaxPool"):
        reduce = np.mean if op == "GlobalAveragePool" else np.max
        return reduce(x[0], axis=(2, 3), keepdims=True)
    if op == "Pad":
        pads = [int(v) for v in (x[1] if len(x) > 1 else attr(node, "pads"))]
        half = len(pads) // 2
        return np.pad(x[0], [(pads[i], pads[i + half]) for i in range(half)])
    if op == "Flatten":
        axis = attr(node, "axis", 1)
        return x[0].reshape(int(np.prod(x[0].shape[:axis])), -1)
    if op == "BatchNormalization":
        shape = (1, -1) + (1,) * (x[0].ndim - 2)
        scale = x[1] / np.sqrt(x[4] + attr(node, "epsilon", 1e-5))
        return (x[0] - x[3].reshape(shape)) * scale.reshape(shape) + x[2].reshape(shape)
    if op == "Clip":
        low = x[1] if len(x) > 1 and x[1] is not None else -np.inf
        high = x[2] if len(x) > 2 and x[2] is not None else np.inf
        return np.clip(x[0], low, high)
    return None
