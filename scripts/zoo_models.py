"""The model zoo of scripts/onnx_zoo.py: each model as PyTorch builds it (random, seeded
weights), its example input, and its multiply-accumulate count as PyTorch executes it.

MAC counting: while the example runs forward, the functions that multiply-accumulate are
wrapped (F.conv2d, F.linear, torch.matmul/bmm/baddbmm/addmm and Tensor.__matmul__/matmul/bmm)
and each call adds, from its own output shape:
  conv      output elements x (Cin / groups) x kh x kw   (the weight's dims 1..3)
  linear    output elements x in_features
  matmul    output elements x the shared (inner) dimension
Wrapping the functions, not forward hooks on nn.Conv2d/nn.Linear alone, also counts what
modules do without a submodule: nn.MultiheadAttention's packed projection and out_proj
(F.linear on its own weights), its attention products (torch.bmm), Swin's F.linear, and the
`q @ k.T` of hand-written attention. Pooling, normalization, softmax and activations are
not MACs here, as in npusim's layer table (the workload rows of report.json).
"""
import contextlib
import math

import torch
import torch.nn.functional as F
import torchvision


def _inner_matmul_dim(a):
    return a.shape[-1] if a.dim() >= 1 else 1


class MacCounter:
    """Adds the MACs of every multiply-accumulating call made inside `with counter:`."""

    def __init__(self):
        self.macs = 0
        self._saved = []

    def _wrap(self, owner, name, macs_of):
        original = getattr(owner, name)

        def counted(*args, **kwargs):
            out = original(*args, **kwargs)
            self.macs += macs_of(out, *args)
            return out
        self._saved.append((owner, name, original))
        setattr(owner, name, counted)

    def __enter__(self):
        matmul = lambda out, a, *rest: out.numel() * _inner_matmul_dim(a)
        self._wrap(F, "conv2d", lambda out, x, w, *rest: out.numel() * math.prod(w.shape[1:]))
        self._wrap(F, "linear", lambda out, x, w, *rest: out.numel() * w.shape[1])
        for name in ("matmul", "bmm"):
            self._wrap(torch, name, matmul)
            self._wrap(torch.Tensor, name, matmul)
        self._wrap(torch.Tensor, "__matmul__", matmul)
        for name in ("baddbmm", "addmm"):
            self._wrap(torch, name, lambda out, bias, a, *rest: out.numel() * _inner_matmul_dim(a))
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()


def count_macs(model, example):
    """MACs of one forward pass, with autograd on as during the export (so
    nn.TransformerEncoderLayer takes its exportable path, not the fused one)."""
    inputs = example if isinstance(example, tuple) else (example,)
    with MacCounter() as counter:
        model(*inputs)
    return counter.macs


class SegmentationOutput(torch.nn.Module):
    """torchvision's segmentation models return a dict; ONNX export wants the tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


class EncoderStack(torch.nn.Module):
    """A stock nn.TransformerEncoder over [1, tokens, dim] activations."""

    def __init__(self, dim, heads, layers, activation, norm_first, final_norm):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(dim, heads, dim * 2, dropout=0.0, activation=activation,
                                                 batch_first=True, norm_first=norm_first)
        norm = torch.nn.LayerNorm(dim) if final_norm else None
        self.encoder = torch.nn.TransformerEncoder(layer, layers, norm=norm, enable_nested_tensor=False)

    def forward(self, x):
        return self.encoder(x)


class DecoderStack(torch.nn.Module):
    """A stock nn.Transformer (encoder and decoder, each with its final LayerNorm) on one
    [1, tokens, dim] input: the encoder's output is the decoder's memory, and the decoder's
    self-attention is causal (nn.Transformer.generate_square_subsequent_mask)."""

    def __init__(self, dim, heads, layers, activation, norm_first, tokens=16):
        super().__init__()
        self.transformer = torch.nn.Transformer(dim, heads, 1, layers, dim * 2, dropout=0.0, activation=activation,
                                                batch_first=True, norm_first=norm_first)
        self.register_buffer("causal", torch.nn.Transformer.generate_square_subsequent_mask(tokens))

    def forward(self, x):
        return self.transformer(x, x, tgt_mask=self.causal)


class Attention(torch.nn.Module):
    """Multi-head self-attention written out as GPT-2 and BERT write it: one packed q/k/v
    projection split three ways (GPT-2) or three projections (BERT), and a mask added
    (BERT) or selected with torch.where (GPT-2's causal mask)."""

    def __init__(self, dim, heads, packed, causal, tokens):
        super().__init__()
        self.heads, self.packed, self.causal = heads, packed, causal
        self.qkv = torch.nn.Linear(dim, 3 * dim) if packed else None
        self.q, self.k, self.v = (None, None, None) if packed else (torch.nn.Linear(dim, dim) for _ in range(3))
        self.proj = torch.nn.Linear(dim, dim)
        self.register_buffer("causal_mask", torch.tril(torch.ones(tokens, tokens, dtype=torch.bool)))

    def _split_heads(self, x):
        n, t, d = x.shape
        return x.reshape(n, t, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, x, additive_mask=None):
        q, k, v = self.qkv(x).split(x.shape[-1], dim=-1) if self.packed else (self.q(x), self.k(x), self.v(x))
        q, k, v = (self._split_heads(t) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        if self.causal:
            scores = torch.where(self.causal_mask, scores, torch.tensor(-1e4))
        if additive_mask is not None:
            scores = scores + additive_mask
        out = torch.softmax(scores, dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(x.shape))


class Gpt2Block(torch.nn.Module):
    """GPT-2's shape: token ids -> token + position embedding -> pre-norm blocks (causal
    attention, MLP with GELU-tanh) -> final LayerNorm -> vocabulary logits."""

    def __init__(self, vocab=512, dim=64, heads=4, tokens=16, depth=2):
        super().__init__()
        self.token = torch.nn.Embedding(vocab, dim)
        self.position = torch.nn.Parameter(torch.randn(tokens, dim) * 0.02)
        self.blocks = torch.nn.ModuleList(torch.nn.ModuleDict({
            "ln1": torch.nn.LayerNorm(dim), "attn": Attention(dim, heads, True, True, tokens),
            "ln2": torch.nn.LayerNorm(dim), "fc": torch.nn.Linear(dim, 4 * dim),
            "proj": torch.nn.Linear(4 * dim, dim)}) for _ in range(depth))
        self.ln_f = torch.nn.LayerNorm(dim)
        self.head = torch.nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        x = self.token(ids) + self.position
        for b in self.blocks:
            x = x + b["attn"](b["ln1"](x))
            x = x + b["proj"](F.gelu(b["fc"](b["ln2"](x)), approximate="tanh"))
        return self.head(self.ln_f(x))


class BertBlock(torch.nn.Module):
    """BERT's shape: token ids -> token + position + token-type embedding, LayerNorm ->
    post-norm blocks (attention with an additive padding mask, MLP with GELU) -> pooler
    (Linear + Tanh on the first token)."""

    def __init__(self, vocab=512, dim=64, heads=4, tokens=16, depth=2):
        super().__init__()
        self.token = torch.nn.Embedding(vocab, dim)
        self.position = torch.nn.Parameter(torch.randn(tokens, dim) * 0.02)
        self.token_type = torch.nn.Parameter(torch.randn(dim) * 0.02)
        self.register_buffer("padding_mask", torch.zeros(1, 1, 1, tokens))
        self.ln_embed = torch.nn.LayerNorm(dim)
        self.blocks = torch.nn.ModuleList(torch.nn.ModuleDict({
            "attn": Attention(dim, heads, False, False, tokens), "ln1": torch.nn.LayerNorm(dim),
            "fc": torch.nn.Linear(dim, 4 * dim), "proj": torch.nn.Linear(4 * dim, dim),
            "ln2": torch.nn.LayerNorm(dim)}) for _ in range(depth))
        self.pooler = torch.nn.Linear(dim, dim)

    def forward(self, ids):
        x = self.ln_embed(self.token(ids) + self.position + self.token_type)
        for b in self.blocks:
            x = b["ln1"](x + b["attn"](x, self.padding_mask))
            x = b["ln2"](x + b["proj"](F.gelu(b["fc"](x))))
        return torch.tanh(self.pooler(x[:, 0]))


def _image(size=224):
    return torch.randn(1, 3, size, size)


def _tokens():
    return torch.randn(1, 16, 64)


def _token_ids():
    return torch.randint(0, 512, (1, 16), dtype=torch.int64)


def _classifier(name, **kwargs):
    return lambda: (getattr(torchvision.models, name)(weights=None, **kwargs), _image())


def _segmenter(name):
    builder = getattr(torchvision.models.segmentation, name)
    return lambda: (SegmentationOutput(builder(weights=None, weights_backbone=None)), _image())


def _encoder(activation, norm_first, final_norm):
    return lambda: (EncoderStack(64, 4, 2, activation, norm_first, final_norm), _tokens())


def _decoder(activation, norm_first):
    return lambda: (DecoderStack(64, 4, 2, activation, norm_first), _tokens())


CLASSIFIERS = ["resnet18", "resnet50", "resnext50_32x4d", "wide_resnet50_2", "mobilenet_v2",
               "mobilenet_v3_small", "mobilenet_v3_large", "efficientnet_b0", "efficientnet_v2_s",
               "regnet_x_400mf", "regnet_y_400mf", "convnext_tiny", "densenet121", "googlenet",
               "squeezenet1_0", "alexnet", "vgg16", "mnasnet1_0", "shufflenet_v2_x1_0", "swin_t", "vit_b_16"]


def zoo():
    """name -> (builder returning (model, example input), opset)."""
    models = {name: (_classifier(name), 17) for name in CLASSIFIERS}
    models["googlenet"] = (_classifier("googlenet", aux_logits=False, init_weights=True), 17)
    models["inception_v3"] = (lambda: (torchvision.models.inception_v3(
        weights=None, aux_logits=False, init_weights=True), _image(299)), 17)
    for name in ("fcn_resnet50", "deeplabv3_mobilenet_v3_large", "lraspp_mobilenet_v3_large"):
        models[name] = (_segmenter(name), 17)
    models["transformer_encoder_relu"] = (_encoder("relu", False, False), 17)
    models["transformer_encoder_gelu_prenorm"] = (_encoder("gelu", True, True), 17)
    models["transformer_decoder_relu"] = (_decoder("relu", False), 17)
    models["transformer_decoder_gelu_prenorm"] = (_decoder("gelu", True), 17)
    models["gpt2_block"] = (lambda: (Gpt2Block(), _token_ids()), 17)
    models["bert_block"] = (lambda: (BertBlock(), _token_ids()), 17)
    # Opset 13: LayerNormalization (17) and HardSwish (14) are written out op by op.
    models["transformer_encoder_gelu_prenorm_opset13"] = (_encoder("gelu", True, True), 13)
    models["bert_block_opset13"] = (lambda: (BertBlock(), _token_ids()), 13)
    models["mobilenet_v3_small_opset13"] = (_classifier("mobilenet_v3_small"), 13)
    return models
