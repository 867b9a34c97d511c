#!/usr/bin/python3
"""The zoo's PyTorch MAC count (scripts/zoo_models.py) against MACs written out by hand
for small modules: a grouped conv, a Linear over tokens, nn.MultiheadAttention (packed
projection, attention products, out_proj) and a hand-written `q @ k.T`. Exit 0 when every
count matches, 1 otherwise; 77 (skipped) without Debian's python3-torch."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
try:
    import torch
except ImportError:
    print("skipped: python3-torch is not installed")
    sys.exit(77)
import zoo_models  # noqa: E402


class QueryKey(torch.nn.Module):
    def forward(self, x):
        return x @ x.transpose(-1, -2)


def cases():
    """(what, module, example, MACs by hand)."""
    yield ("grouped conv 3x3, 8->16 channels in 4 groups, 10x10 -> 5x5 (stride 2, pad 1)",
           torch.nn.Conv2d(8, 16, 3, stride=2, padding=1, groups=4), torch.randn(1, 8, 10, 10),
           16 * 5 * 5 * (8 // 4) * 3 * 3)
    yield ("Linear 12->20 over 7 tokens", torch.nn.Linear(12, 20), torch.randn(1, 7, 12), 7 * 20 * 12)
    # q, k, v and out projections (4 x t x d x d) plus QK^T and AV (2 x t x t x d over all heads).
    t, d = 6, 16
    attention = torch.nn.MultiheadAttention(d, 4, batch_first=True)
    yield ("nn.MultiheadAttention, 6 tokens of 16, 4 heads", lambda x: attention(x, x, x)[0],
           torch.randn(1, t, d), 4 * t * d * d + 2 * t * t * d)
    yield ("q @ k^T of 5 tokens of 8", QueryKey(), torch.randn(2, 5, 8), 2 * 5 * 5 * 8)


def main():
    failures = 0
    for what, module, example, expected in cases():
        counted = zoo_models.count_macs(module, example)
        status = "ok" if counted == expected else "MISMATCH"
        failures += counted != expected
        print(f"{status}: {what}: counted {counted}, by hand {expected}")
    with zoo_models.MacCounter():
        pass
    restored = torch.matmul.__name__ == "matmul" and torch.nn.functional.linear.__name__ == "linear"
    print(("ok" if restored else "MISMATCH") + ": the wrapped functions are restored on leaving the counter")
    return 1 if failures or not restored else 0


if __name__ == "__main__":
    sys.exit(main())
