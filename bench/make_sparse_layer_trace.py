#!/usr/bin/env python3
"""Writes a one-instruction sparse_conv trace: 56x56x64 -> 64, 3x3, pad 1, int8 out,
with the ifm and the weights both at the given zero fraction (timing runs assume it;
functional runs generate it with the same seeds)."""
import json
import sys

out, zeros = sys.argv[1], float(sys.argv[2])
n, w = 56 * 56 * 64, 64 * 3 * 3 * 64
ifm_v, ifm_i, w_v, w_i, ofm = 0, 1 << 20, 4 << 20, 5 << 20, 8 << 20
header = {"format": "npusim-trace", "version": 1,
          "inputs": [{"name": "x", "space": "dram", "offset": 16 << 20, "shape": [56, 56, 64], "dtype": "int8",
                      "random_seed": 3, "zeros": zeros},
                     {"name": "w", "space": "dram", "offset": 20 << 20, "shape": [64, 3, 3, 64], "dtype": "int8",
                      "random_seed": 4, "zeros": zeros}]}
def t(offset, shape, dtype):
    return {"space": "dram", "offset": offset, "shape": shape, "dtype": dtype}
lines = [
    {"id": 0, "op": "compress", "inputs": [t(16 << 20, [56, 56, 64], "int8")],
     "outputs": [t(ifm_v, [n], "int8"), t(ifm_i, [n], "int32")], "params": {"assumed_zeros": zeros}},
    {"id": 1, "op": "compress", "inputs": [t(20 << 20, [64, 3, 3, 64], "int8")],
     "outputs": [t(w_v, [w], "int8"), t(w_i, [w], "int32")], "params": {"assumed_zeros": zeros}},
    {"id": 2, "op": "sparse_conv",
     "inputs": [t(ifm_v, [n], "int8"), t(ifm_i, [n], "int32"), t(w_v, [w], "int8"), t(w_i, [w], "int32")],
     "outputs": [t(ofm, [56, 56, 64], "int8")],
     "params": {"ifm_shape": [56, 56, 64], "kernel": [3, 3], "padding": [1, 1, 1, 1], "shift": 8, "relu": True,
                "assumed_sparsity": {"ifm": zeros, "weights": zeros, "seed": 3}}},
]
with open(out, "w") as f:
    f.write(json.dumps(header) + "\n")
    for line in lines:
        f.write(json.dumps(line) + "\n")
