#!/usr/bin/env python3
"""Write an N-instruction npusim trace for memory and speed tests.

Usage: make-long-trace.py N OUT            LOAD -> RELU -> STORE chains (any chip)
       make-long-trace.py N OUT --sparse   N sparse_conv layers (configs/sparse.json)

The trace repeats LOAD -> RELU -> STORE chains on core 0. Each chain uses one
1x8x8x16 int8 tile; chains rotate through 16 tile slots in NRAM (32 KiB in all,
well inside the default chip's NRAM) and through 16 DRAM regions, so the trace
is valid on the default config whatever N is. Plain Python, no numpy.
"""
import json
import sys

SHAPE = [1, 8, 8, 16]
TILE_BYTES = 1 * 8 * 8 * 16  # int8
SLOTS = 16


def tensor(space, offset):
    return {"space": space, "offset": offset, "shape": SHAPE, "dtype": "int8"}


def chain_step(i):
    """The i-th instruction: step i % 3 of chain i // 3."""
    chain, step = divmod(i, 3)
    slot = chain % SLOTS
    nram_in = slot * 2 * TILE_BYTES
    nram_out = nram_in + TILE_BYTES
    dram_in = slot * TILE_BYTES
    dram_out = (SLOTS + slot) * TILE_BYTES
    if step == 0:
        return {"id": i, "op": "load", "inputs": [tensor("dram", dram_in)], "outputs": [tensor("nram", nram_in)]}
    if step == 1:
        return {"id": i, "op": "relu", "inputs": [tensor("nram", nram_in)], "outputs": [tensor("nram", nram_out)],
                "deps": [{"id": i - 1, "mode": "staged", "granularity": "rows"}]}
    return {"id": i, "op": "store", "inputs": [tensor("nram", nram_out)], "outputs": [tensor("dram", dram_out)],
            "deps": [i - 1]}


# --sparse: timing-only sparse_conv layers of a 16x16x8 map and 8 3x3 filters, their compressed
# operands at fixed DRAM places (never read in timing mode: assumed_sparsity stands in), each
# writing one of two output regions after the layer two before it.
SPARSE_MAP, SPARSE_CO = [16, 16, 8], 8
SPARSE_IFM = 16 * 16 * 8
SPARSE_WEIGHTS = SPARSE_CO * 3 * 3 * 8
SPARSE_OUT_BYTES = 16 * 16 * SPARSE_CO * 4


def sparse_step(i):
    def flat(offset, count, dtype):
        return {"space": "dram", "offset": offset, "shape": [count], "dtype": dtype}
    weights = 5 * SPARSE_IFM
    out = 5 * (SPARSE_IFM + SPARSE_WEIGHTS) + (i % 2) * SPARSE_OUT_BYTES
    step = {"id": i, "op": "sparse_conv",
            "inputs": [flat(0, SPARSE_IFM, "int8"), flat(SPARSE_IFM, SPARSE_IFM, "int32"),
                       flat(weights, SPARSE_WEIGHTS, "int8"), flat(weights + SPARSE_WEIGHTS, SPARSE_WEIGHTS, "int32")],
            "outputs": [{"space": "dram", "offset": out, "shape": [16, 16, SPARSE_CO], "dtype": "int32"}],
            "params": {"ifm_shape": SPARSE_MAP, "kernel": [3, 3], "padding": [1, 1, 1, 1],
                       "assumed_sparsity": {"ifm": 0.6, "weights": 0.7, "seed": 1}}}
    if i >= 2:
        step["deps"] = [i - 2]
    return step


def main(argv):
    sparse = "--sparse" in argv[3:]
    if len(argv) not in (3, 4) or not argv[1].isdigit() or (len(argv) == 4 and not sparse):
        sys.exit("usage: make-long-trace.py N OUT [--sparse]")
    count, out = int(argv[1]), argv[2]
    step = sparse_step if sparse else chain_step
    with open(out, "w") as f:
        f.write(json.dumps({"format": "npusim-trace", "version": 1}, separators=(",", ":")) + "\n")
        for i in range(count):
            f.write(json.dumps(step(i), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv)
