#!/usr/bin/env python3
"""Writes a trace that runs one conv layer on one core, in bands of output rows.

Usage: make_conv_layer_trace.py OUT.jsonl [H W CI CO K BAND]
Defaults: the 56x56x64 -> 64, 3x3, pad 1 layer of the matrix-unit benchmark,
in bands of 7 output rows. Bands alternate between two NRAM halves so the next
band's load overlaps the current band's conv (double buffering), with the
write-after-read dependencies that this needs. Inputs are seeded random data,
so the same trace serves timing and functional runs.
"""
import json
import sys


def tensor(space, offset, shape, dtype):
    return {"space": space, "offset": offset, "shape": shape, "dtype": dtype}


def main():
    out = sys.argv[1]
    h, w, ci, co, k, band = (int(v) for v in (sys.argv[2:8] or [56, 56, 64, 64, 3, 7]))
    pad = k // 2
    weights_bytes = co * k * k * ci
    ifmap_dram, weights_dram = 0, h * w * ci
    ofmap_dram = weights_dram + weights_bytes
    in_band_max = (band + k - 1) * w * ci
    out_band_bytes = band * w * co * 4
    nram_in = [0, in_band_max]
    nram_out = [2 * in_band_max, 2 * in_band_max + out_band_bytes]
    lines = [{
        "format": "npusim-trace", "version": 1,
        "inputs": [
            {"name": "ifmap", "space": "dram", "offset": ifmap_dram, "shape": [1, h, w, ci], "dtype": "int8", "random_seed": 1},
            {"name": "weights", "space": "dram", "offset": weights_dram, "shape": [co, k, k, ci], "dtype": "int8", "random_seed": 2},
        ],
        "outputs": [{"name": "ofmap", "space": "dram", "offset": ofmap_dram, "shape": [1, h, w, co], "dtype": "int32"}],
    }]
    next_id = 0

    def emit(op, inputs, outputs, deps, params=None):
        nonlocal next_id
        inst = {"id": next_id, "op": op, "inputs": inputs, "outputs": outputs, "deps": deps}
        if params:
            inst["params"] = params
        lines.append(inst)
        next_id += 1
        return next_id - 1

    load_w = emit("load", [tensor("dram", weights_dram, [co, k, k, ci], "int8")],
                  [tensor("wram", 0, [co, k, k, ci], "int8")], [])
    convs, stores = [], []
    for b, r0 in enumerate(range(0, h, band)):
        rows_out = min(band, h - r0)
        first_in = max(0, r0 - pad)
        last_in = min(h - 1, r0 + rows_out - 1 + (k - 1 - pad))
        rows_in = last_in - first_in + 1
        pad_top = pad if r0 == 0 else 0
        pad_bottom = rows_out + k - 1 - rows_in - pad_top
        half = b % 2
        in_shape, out_shape = [1, rows_in, w, ci], [1, rows_out, w, co]
        # The load reuses the NRAM half that conv b-2 read: wait for that conv.
        load = emit("load", [tensor("dram", ifmap_dram + first_in * w * ci, in_shape, "int8")],
                    [tensor("nram", nram_in[half], in_shape, "int8")], convs[-2:-1] if b >= 2 else [])
        conv_deps = [load, load_w] + (stores[-2:-1] if b >= 2 else [])
        conv = emit("conv", [tensor("nram", nram_in[half], in_shape, "int8"), tensor("wram", 0, [co, k, k, ci], "int8")],
                    [tensor("nram", nram_out[half], out_shape, "int32")], conv_deps,
                    {"stride": [1, 1], "padding": [pad_top, pad_bottom, pad, pad]})
        store = emit("store", [tensor("nram", nram_out[half], out_shape, "int32")],
                     [tensor("dram", ofmap_dram + r0 * w * co * 4, out_shape, "int32")], [conv])
        convs.append(conv)
        stores.append(store)
    with open(out, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
