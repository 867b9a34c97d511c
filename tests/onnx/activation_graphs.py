#!/usr/bin/python3
"""Writes the small ONNX graphs of npusim's activation and element-wise tests
(docs/workload-format.md, "Activations and elementwise") with the onnx helper API, no
PyTorch needed; tests/onnx/onnx_reference.py then compares a functional run of each
with a numpy evaluation of the graph.

    tests/onnx/activation_graphs.py OUT_DIR   # writes se_block.onnx, token_gates.onnx, causal_block.onnx there

se_block: a MobileNetV3 / EfficientNet style block on [2, 8, 12, 12] maps, no biases:
conv -> x * Sigmoid(x) (SiLU) -> depthwise conv -> x * HardSigmoid(x) (hard swish) ->
squeeze-and-excitation (global pool, 1x1 conv, ReLU, 1x1 conv, a Div by 16 (fraction
bits for the gate's input), HardSigmoid, Mul of the gate and the map) -> 1x1 conv -> layer scale (Mul by one constant per channel) ->
HardSwish; beside it a Div by 8 -> Sigmoid and a Div by 32 -> Tanh of convs (scaled so
that their inputs have fraction bits, as calibrated scales would give them).
token_gates: [1, 16, 32] tokens plus a token-type embedding (an Add of one value per
channel, with no layer to fold it into), a projection, its Tanh, the product of two
activations of one shape (a gated unit), Sigmoid of another projection, and BERT's pooler:
the first token (a Gather of index 0), a Gemm and a Tanh.
causal_block: [1, 16, 32] tokens plus a positional embedding (an Add of a [16, 32]
constant), attention scores masked by a Where with a constant causal condition and by an
Add of a 0 / -inf mask, and an MLP whose GELU is written in the tanh form, node by node,
as GPT-2's NewGELU exports it.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(5)


class Graph:
    def __init__(self, name, shape):
        self.name, self.nodes, self.inits = name, [], []
        self.input = helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)

    def const(self, name, values):
        self.inits.append(numpy_helper.from_array(np.asarray(values, dtype=np.float32), name))
        return name

    def node(self, op, name, inputs, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [name + "_out"], name=name, **attrs))
        return name + "_out"

    def conv(self, name, x, ci, co, k, group=1, spread=1 / 16):
        w = RNG.uniform(-spread, spread, size=(co, ci // group, k, k))
        return self.node("Conv", name, [x, self.const(name + ".w", w)], pads=[k // 2] * 4, group=group)

    def save(self, path, outputs, opset):
        graph = helper.make_graph(self.nodes, self.name, [self.input], [], self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        inferred = {v.name: v for v in onnx.shape_inference.infer_shapes(model).graph.value_info}
        model.graph.output.extend(inferred[o] for o in outputs)
        onnx.checker.check_model(model)
        onnx.save(model, path)


def se_block(path):
    g = Graph("se_block", [2, 8, 12, 12])
    x = g.conv("expand", "input", 8, 16, 3)
    x = g.node("Mul", "silu", [x, g.node("Sigmoid", "silu_gate", [x])])
    x = g.conv("dw", x, 16, 16, 3, group=16, spread=1 / 2)
    x = g.node("Mul", "hswish", [g.node("HardSigmoid", "hswish_gate", [x], alpha=1 / 6, beta=0.5), x])
    s = g.node("GlobalAveragePool", "squeeze", [x])
    s = g.node("Relu", "se_relu", [g.conv("se_reduce", s, 16, 4, 1, spread=1 / 2)])
    s = g.node("Div", "se_scale", [g.conv("se_expand", s, 4, 16, 1, spread=1 / 2), g.const("se_sixteen", 16.0)])
    s = g.node("HardSigmoid", "se_gate", [s], alpha=1 / 6, beta=0.5)
    x = g.node("Mul", "excite", [s, x])
    y = g.conv("project", x, 16, 8, 1, spread=1 / 2)
    y = g.node("Mul", "layer_scale", [g.const("gamma", RNG.uniform(0.25, 1, size=(8, 1, 1))), y])
    y = g.node("HardSwish", "hardswish", [y])
    p = g.node("Div", "p_scale", [g.conv("p", "input", 8, 8, 3), g.const("eight", 8.0)])
    p = g.node("Sigmoid", "sigmoid", [p])
    t = g.node("Div", "t_scale", [g.conv("t", "input", 8, 8, 1), g.const("thirty_two", 32.0)])
    t = g.node("Tanh", "tanh", [t])
    g.save(path, [y, p, t], 17)


def token_gates(path):
    g = Graph("token_gates", [1, 16, 32])
    def proj(name, x):
        return g.node("MatMul", name, [x, g.const(name + ".w", RNG.uniform(-1 / 8, 1 / 8, size=(32, 32)))])
    x = g.node("Add", "token_type", ["input", g.const("segment", RNG.uniform(-1 / 4, 1 / 4, size=32))])
    a = g.node("Tanh", "tanh", [proj("a", x)])
    gated = g.node("Mul", "gated", [a, proj("b", x)])
    s = g.node("Sigmoid", "sigmoid", [proj("c", gated)])
    g.inits.append(numpy_helper.from_array(np.array(0, dtype=np.int64), "zero"))
    first = g.node("Gather", "first_token", [gated, "zero"], axis=1)
    w = g.const("pooler.w", RNG.uniform(-1 / 8, 1 / 8, size=(32, 32)))
    pooled = g.node("Tanh", "pooler", [g.node("Gemm", "pooler_fc", [first, w], transB=1)])
    g.save(path, [s, pooled], 17)


def causal_block(path):
    g = Graph("causal_block", [1, 16, 32])
    def proj(name, x, k=32, n=32):
        return g.node("MatMul", name, [x, g.const(name + ".w", RNG.uniform(-1 / 8, 1 / 8, size=(k, n)))])
    x = g.node("Add", "position", ["input", g.const("pos", RNG.uniform(-1 / 4, 1 / 4, size=(16, 32)))])
    q, k, v = proj("q", x), proj("k", x), proj("v", x)
    s = g.node("MatMul", "scores", [q, g.node("Transpose", "kt", [k], perm=[0, 2, 1])])
    s = g.node("Div", "scale", [s, g.const("four", 4.0)])
    causal = np.tril(np.ones((16, 16), dtype=bool))
    g.inits.append(numpy_helper.from_array(causal, "causal"))
    masked = g.node("Where", "causal_mask", ["causal", s, g.const("minus_inf", -np.inf)])
    o = g.node("MatMul", "context", [g.node("Softmax", "probs", [masked], axis=-1), v])
    h = proj("fc", o, 32, 64)
    # GELU's tanh form as GPT-2's NewGELU exports it
    cube = g.node("Mul", "cube", [h, g.node("Mul", "square", [h, h])])
    inner = g.node("Add", "inner", [h, g.node("Mul", "kappa", [g.const("c_kappa", 0.044715), cube])])
    t = g.node("Tanh", "gelu_tanh", [g.node("Mul", "beta", [g.const("c_beta", np.sqrt(2 / np.pi)), inner])])
    gelu = g.node("Mul", "half", [g.const("c_half", 0.5), g.node("Mul", "gate", [h, g.node("Add", "one", [g.const("c_one", 1.0), t])])])
    y = proj("proj", gelu, 64, 32)
    # an additive mask of 0 and -inf, as nn.Transformer's generate_square_subsequent_mask gives
    additive = np.where(causal, 0.0, -np.inf)[None]
    s2 = g.node("Add", "additive_mask", [s, g.const("mask", additive)])
    p2 = g.node("Softmax", "probs2", [s2], axis=-1)
    g.save(path, [y, p2], 17)


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    se_block(os.path.join(out, "se_block.onnx"))
    token_gates(os.path.join(out, "token_gates.onnx"))
    causal_block(os.path.join(out, "causal_block.onnx"))
