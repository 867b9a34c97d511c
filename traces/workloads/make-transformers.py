#!/usr/bin/env python3
"""Writes the bundled transformer workloads: BERT-base (seq 128 and 512), ViT-B/16, and
decoder-only LLM block stacks in the shape of a 7B model (prefill of 2,048 tokens, and one
decode step against a 2,048-token KV cache) and of a 70B model (prefill of 2,048 tokens, and
one decode step against an 8,192-token KV cache).

Run from anywhere: python3 traces/workloads/make-transformers.py
Tokens are rows of h (w = 1, c = features); heads are channel segments (docs/workload-format.md,
"Transformer layers"). Shapes: BERT-base from Devlin et al. 2018 (12 layers, d 768, 12 heads,
ffn 3072, post-norm); ViT-B/16 from Dosovitskiy et al. 2020 (the same encoder, pre-norm, over
the 14x14 patch map, classified from the mean token instead of a class token); the 7B block
from LLaMA-7B's published sizes (32 layers, d 4096, 32 heads, ffn 11008, pre-norm, gated MLP);
the 70B block from LLaMA-2-70B's (80 layers, d 8192, 64 heads, ffn 28672). LLaMA-2-70B shares
each key/value head among 8 query heads (grouped-query attention, 8 KV heads); the attention
layers here have no grouping, so its k and v projections and KV cache are full width (64 KV
heads): 8x the model's k/v weights and cache bytes, about 13 % more MACs in the prefill.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def fc(name, n, inp=None):
    layer = {"name": name, "type": "fc", "n": n}
    if inp:
        layer["input"] = inp
    return layer


def attention(p, x, d, heads, kv_cache=0):
    """Self-attention over x; returns its layers, the output projection last."""
    cache = {"kv_cache_tokens": kv_cache} if kv_cache else {}
    return [fc(f"{p}.q", d, x), fc(f"{p}.k", d, x), fc(f"{p}.v", d, x),
            {"name": f"{p}.scores", "type": "matmul", "inputs": [f"{p}.q", f"{p}.k"], "heads": heads,
             "transpose_b": True, **cache},
            {"name": f"{p}.probs", "type": "softmax", "heads": heads},
            {"name": f"{p}.ctx", "type": "matmul", "inputs": [f"{p}.probs", f"{p}.v"], "heads": heads, **cache},
            fc(f"{p}.proj", d)]


def encoder_layer(p, x, d, heads, ffn, pre_norm):
    """A BERT (post-norm) or ViT (pre-norm) encoder layer; returns (layers, output name)."""
    if pre_norm:
        layers = [{"name": f"{p}.ln1", "type": "layernorm", "input": x}]
        layers += attention(f"{p}.attn", f"{p}.ln1", d, heads)
        layers += [{"name": f"{p}.res1", "type": "add", "inputs": [f"{p}.attn.proj", x]},
                   {"name": f"{p}.ln2", "type": "layernorm"},
                   fc(f"{p}.ffn1", ffn), {"name": f"{p}.gelu", "type": "gelu"}, fc(f"{p}.ffn2", d),
                   {"name": f"{p}.res2", "type": "add", "inputs": [f"{p}.ffn2", f"{p}.res1"]}]
        return layers, f"{p}.res2"
    layers = attention(f"{p}.attn", x, d, heads)
    layers += [{"name": f"{p}.res1", "type": "add", "inputs": [f"{p}.attn.proj", x]},
               {"name": f"{p}.ln1", "type": "layernorm"},
               fc(f"{p}.ffn1", ffn), {"name": f"{p}.gelu", "type": "gelu"}, fc(f"{p}.ffn2", d),
               {"name": f"{p}.res2", "type": "add", "inputs": [f"{p}.ffn2", f"{p}.ln1"]},
               {"name": f"{p}.ln2", "type": "layernorm"}]
    return layers, f"{p}.ln2"


def bert_base(seq, layers=12):
    out, x = [], "input"
    for i in range(layers):
        block, x = encoder_layer(f"l{i}", x, 768, 12, 3072, pre_norm=False)
        out += block
    return {"name": f"bert-base-seq{seq}",
            "description": f"BERT-base encoder stack, {layers} layers, {seq} tokens (embeddings as the input)",
            "batch": 1, "input": {"h": seq, "w": 1, "c": 768}, "layers": out}


def vit_b16(layers=12):
    out = [{"name": "patch", "type": "conv", "co": 768, "k": 16, "stride": 16}]
    x = "patch"
    for i in range(layers):
        block, x = encoder_layer(f"l{i}", x, 768, 12, 3072, pre_norm=True)
        out += block
    out += [{"name": "ln", "type": "layernorm"}, {"name": "pool", "type": "pool", "mode": "avg", "global": True},
            fc("head", 1000)]
    return {"name": "vit-b16", "description": "ViT-B/16, 224x224, 196 patch tokens (no class token)",
            "batch": 1, "input": {"h": 224, "w": 224, "c": 3}, "layers": out}


def llm(tokens, kv_cache=0, layers=32, d=4096, heads=32, ffn=11008, size="7b", full_layers=32):
    """LLaMA-shaped blocks. RMSNorm is modelled as layernorm, SiLU as GELU, and the gate's
    element-wise product as an add (same element count; no element-wise multiply kind)."""
    out, x = [], "input"
    for i in range(layers):
        p = f"l{i}"
        out.append({"name": f"{p}.norm1", "type": "layernorm", "input": x})
        out += attention(f"{p}.attn", f"{p}.norm1", d, heads, kv_cache)
        out += [{"name": f"{p}.res1", "type": "add", "inputs": [f"{p}.attn.proj", x]},
                {"name": f"{p}.norm2", "type": "layernorm"},
                fc(f"{p}.gate", ffn), {"name": f"{p}.act", "type": "gelu"}, fc(f"{p}.up", ffn, f"{p}.norm2"),
                {"name": f"{p}.glu", "type": "add", "inputs": [f"{p}.act", f"{p}.up"]},
                fc(f"{p}.down", d),
                {"name": f"{p}.res2", "type": "add", "inputs": [f"{p}.down", f"{p}.res1"]}]
        x = f"{p}.res2"
    step = f"decode step, {kv_cache}-token KV cache" if kv_cache else f"prefill of {tokens} tokens"
    name = f"llm-{size}-{'decode' if kv_cache else 'prefill'}" + ("" if layers == full_layers else f"-{layers}l")
    kv_heads = "" if size == "7b" else f", {heads} KV heads (no grouped-query attention; LLaMA-2-70B has 8)"
    return {"name": name, "description": f"decoder-only LLM, {size.upper()} shape ({layers} layers, d {d}, {heads} heads"
                                         f"{kv_heads}, ffn {ffn}), {step}",
            "batch": 1, "input": {"h": tokens, "w": 1, "c": d}, "layers": out}


def llm_70b(tokens, kv_cache=0, layers=80):
    return llm(tokens, kv_cache, layers, d=8192, heads=64, ffn=28672, size="70b", full_layers=80)


def main():
    nets = {"bert-base-seq128": bert_base(128), "bert-base-seq512": bert_base(512), "vit-b16": vit_b16(),
            "llm-7b-prefill": llm(2048), "llm-7b-decode": llm(1, kv_cache=2048),
            "llm-70b-prefill": llm_70b(2048), "llm-70b-decode": llm_70b(1, kv_cache=8192),
            # Small variants the tests run: two layers each.
            "bert-base-2l": bert_base(128, layers=2), "llm-7b-decode-2l": llm(1, kv_cache=2048, layers=2),
            "llm-70b-decode-2l": llm_70b(1, kv_cache=8192, layers=2)}
    nets["bert-base-2l"]["name"] = "bert-base-2l"
    for name, net in nets.items():
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            json.dump(net, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
