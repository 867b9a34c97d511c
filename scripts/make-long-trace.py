#!/usr/bin/env python3
"""Write an N-instruction npusim trace for memory and speed tests.

Usage: make-long-trace.py N OUT

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


def main(argv):
    if len(argv) != 3 or not argv[1].isdigit():
        sys.exit("usage: make-long-trace.py N OUT")
    count, out = int(argv[1]), argv[2]
    with open(out, "w") as f:
        f.write(json.dumps({"format": "npusim-trace", "version": 1}, separators=(",", ":")) + "\n")
        for i in range(count):
            f.write(json.dumps(chain_step(i), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv)
