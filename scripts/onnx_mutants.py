#!/usr/bin/python3
"""Mutants of the bundled ONNX models' attributes and constant inputs, op by op (issue 42).

For every node of a model, each integer attribute (Transpose's perm, Concat's axis, a window's
pads ...) and each small int64 constant a node reads (a Reshape's shape, a Slice's starts, a
class token's Expand shape ...) is given values a hostile user would try: out of the rank,
negative, huge, empty, too long. Used by scripts/mutation-campaign.py (the "onnx op" input)
and to write fuzz seeds and regressions:

    scripts/onnx_mutants.py OUT_DIR [MODEL ...]     # writes every mutant as OUT_DIR/<model>-<n>.onnx
"""
import copy
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["tests/onnx/data/shuffle_blocks.onnx", "tests/onnx/data/class_token_vit.onnx",
          "tests/onnx/data/structure_cnn.onnx", "tests/onnx/data/packed_qkv_encoder.onnx",
          "tests/onnx/data/vit_tiny.onnx", "tests/onnx/data/tiny_transformer.onnx"]
ODD_INTS = [-2**40, -7, -2, -1, 0, 1, 5, 9, 2**40]


def _odd_lists(values):
    """Lists like `values` with one entry replaced, one dropped, one added, or all reversed."""
    out = []
    for i in range(len(values)):
        for v in ODD_INTS:
            changed = list(values)
            changed[i] = v
            out.append(changed)
    out += [values[:-1], values + [values[-1] if values else 0], values[::-1], [], [0] * len(values)]
    return [o for o in out if o != values]


def _int_attributes(model):
    """(node index, attribute index, values as a list, is a list) of every integer attribute."""
    for n, node in enumerate(model.graph.node):
        for a, attr in enumerate(node.attribute):
            if attr.type == onnx.AttributeProto.INTS:
                yield n, a, list(attr.ints), True
            elif attr.type == onnx.AttributeProto.INT:
                yield n, a, [attr.i], False


def _int_constants(model):
    """(node index, values) of every small int64 Constant node's value."""
    for n, node in enumerate(model.graph.node):
        if node.op_type != "Constant":
            continue
        for attr in node.attribute:
            if attr.name == "value" and attr.t.data_type == onnx.TensorProto.INT64:
                value = numpy_helper.to_array(attr.t)
                if value.size <= 8:
                    yield n, value


def mutants(data):
    """Every mutant of one model's bytes, as (what changed, bytes)."""
    model = onnx.load_from_string(data)
    found = []
    for n, a, values, is_list in _int_attributes(model):
        node = model.graph.node[n]
        for changed in (_odd_lists(values) if is_list else [[v] for v in ODD_INTS if v != values[0]]):
            m = copy.deepcopy(model)
            attr = m.graph.node[n].attribute[a]
            if is_list:
                del attr.ints[:]
                attr.ints.extend(changed)
            else:
                attr.i = changed[0]
            found.append((f"{node.op_type} {node.name} {attr.name}={changed}", m))
    for n, value in _int_constants(model):
        node = model.graph.node[n]
        flat = value.reshape(-1).tolist()
        for changed in _odd_lists(flat):
            m = copy.deepcopy(model)
            attr = [x for x in m.graph.node[n].attribute if x.name == "value"][0]
            shape = [len(changed)] if value.ndim == 1 or len(changed) != len(flat) else list(value.shape)
            attr.t.CopyFrom(numpy_helper.from_array(np.array(changed, np.int64).reshape(shape), attr.t.name))
            found.append((f"Constant {node.name} value={changed}", m))
    return [(what, m.SerializeToString()) for what, m in found]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    models = sys.argv[2:] or [os.path.join(ROOT, m) for m in MODELS]
    for path in models:
        stem = os.path.splitext(os.path.basename(path))[0]
        with open(path, "rb") as f:
            found = mutants(f.read())
        with open(os.path.join(out, stem + ".txt"), "w") as index:
            for i, (what, data) in enumerate(found):
                with open(os.path.join(out, f"{stem}-{i}.onnx"), "wb") as f:
                    f.write(data)
                index.write(f"{stem}-{i}.onnx\t{what}\n")
        print(f"{stem}: {len(found)} mutants")


if __name__ == "__main__":
    main()
