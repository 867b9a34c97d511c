#!/usr/bin/python3
"""A mutation campaign against npusim's input readers, as a hostile new user would run it.

Takes the shipped inputs (configs, traces, workloads, sweep specs, .npy files, ONNX models),
mutates each many ways (values of the wrong type or range, deleted and unknown keys, cut and
flipped bytes, ONNX tensors whose data length is off by a byte), runs the command that reads
it, and sorts what happened:

  ok          exit 0
  refused     exit 2 with exactly one line "error: ..." and nothing left in the output place
  finding     anything else: exit 3, a signal, a hang, a multi-line message, a leftover

Usage: scripts/mutation-campaign.py [--inputs N] [--seed S] [--binary build/npusim] [--report FILE]
Exit status 1 when there is a finding. The same seed tries the same inputs.
"""
import argparse
import collections
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT_S = 30

ODD_VALUES = [None, True, -1, 0, 2**31, 2**63, -2**63, 1e308, 1e-300, 3.5, "", "x" * 5000, "\x1b[31m\n",
              [], {}, [[[[1]]]], {"unknown": 1}]


def shipped(folder, suffix):
    path = os.path.join(ROOT, folder)
    return sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(suffix))


def json_paths(doc, prefix=()):
    """Every (path, value) inside a JSON document, containers included."""
    yield prefix, doc
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    for key, value in items:
        yield from json_paths(value, prefix + (key,))


def set_at(doc, path, value):
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


def mutate_json_text(text, rng):
    doc = json.loads(text)
    paths = [p for p, _ in json_paths(doc) if p]
    kind = rng.choice(["value", "value", "delete", "unknown", "bytes"])
    if kind == "bytes" or not paths:
        return mutate_bytes(text.encode(), rng)
    path = rng.choice(paths)
    if kind == "value":
        doc = set_at(doc, path, rng.choice(ODD_VALUES))
    elif kind == "delete":
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
    else:
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict):
            parent["surprise_" + str(rng.randrange(100))] = 1
    return json.dumps(doc).encode()


def mutate_bytes(data, rng):
    data = bytearray(data)
    kind = rng.choice(["cut", "flip", "insert", "duplicate"])
    at = rng.randrange(max(1, len(data)))
    if kind == "cut":
        return bytes(data[:at])
    if kind == "flip":
        data[at] ^= 1 << rng.randrange(8)
    elif kind == "insert":
        data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
    else:
        data[at:at] = data[at:at + rng.randrange(1, 64)]
    return bytes(data)


def mutate_trace(text, rng):
    lines = text.splitlines()
    i = rng.randrange(len(lines))
    try:
        lines[i] = mutate_json_text(lines[i], rng).decode("utf-8", "replace")
    except ValueError:
        return mutate_bytes(text.encode(), rng)
    return ("\n".join(lines) + "\n").encode()


def mutate_onnx(data, rng):
    """An initializer or Constant whose data is a byte short or long, else cut or flipped bytes."""
    try:
        import onnx
    except ImportError:
        return mutate_bytes(data, rng)
    model = onnx.load_from_string(data)
    tensors = [t for t in model.graph.initializer if t.raw_data]
    tensors += [a.t for n in model.graph.node for a in n.attribute if a.HasField("t") and a.t.raw_data]
    if not tensors or rng.random() < 0.3:
        return mutate_bytes(data, rng)
    tensor = rng.choice(tensors)
    tensor.raw_data = tensor.raw_data[:-1] if rng.random() < 0.5 else tensor.raw_data + b"\0"
    return model.SerializeToString()


def small_sweep_spec(workload):
    """A two-point sweep of the tiny network (the shipped specs take minutes per mutant)."""
    spec = {"config": os.path.join(ROOT, "configs/default.json"), "workload": workload,
            "axes": [{"name": "slaves", "pointer": "/core/matrix/slaves", "values": [8, 16]}]}
    path = os.path.join(tempfile.mkdtemp(prefix="npusim-campaign-spec-"), "sweep.json")
    with open(path, "w") as f:
        json.dump(spec, f)
    return path


class Target:
    """One shipped input, how to mutate it, and the command that reads it."""

    def __init__(self, kind, path, mutate, command):
        self.kind, self.path, self.mutate, self.command = kind, path, mutate, command


def targets():
    relu = os.path.join(ROOT, "traces/examples/relu.jsonl")
    tiny = os.path.join(ROOT, "traces/workloads/tiny.json")
    json_mutation = lambda data, rng: mutate_json_text(data.decode(), rng)
    found = []
    for cfg in shipped("configs", ".json"):
        found.append(Target("config", cfg, json_mutation, lambda f, out: ["run", "-q", "--config", f, "--trace", relu, "--out", out]))
    for trace in shipped("traces/examples", ".jsonl"):
        found.append(Target("trace", trace, lambda d, rng: mutate_trace(d.decode(), rng),
                            lambda f, out: ["run", "-q", "--functional", "--trace", f, "--out", out]))
    for wl in ["tiny.json", "mobilenetv2.json", "resnet50-pruned.json", "bert-base-2l.json"]:
        found.append(Target("workload", os.path.join(ROOT, "traces/workloads", wl), json_mutation,
                            lambda f, out: ["compile", "-q", "-w", f, "-o", out]))
    found.append(Target("sweep spec", small_sweep_spec(tiny), json_mutation, lambda f, out: ["sweep", f, "--out", out]))
    found.append(Target("npy", os.path.join(ROOT, "traces/examples/relu_x.npy"), mutate_bytes,
                        lambda f, out: ["run", "-q", "--functional", "--trace", f[:-len("relu_x.npy")] + "relu.jsonl",
                                        "--out", out]))
    for model in shipped("tests/onnx/data", ".onnx") + shipped("tests/fuzz/corpus/onnx", ".onnx"):
        found.append(Target("onnx", model, mutate_onnx, lambda f, out: ["compile", "-q", "-w", f, "-o", out]))
    return found


def memory_limiter(cap_gib):
    """Caps each child's address space; under ASan (cap 0) its allocator caps requests instead,
    since ASan's shadow memory cannot start under an address-space limit."""
    if cap_gib == 0:
        extra = "max_allocation_size_mb=4096:allocator_may_return_null=1"
        os.environ["ASAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS", ""), extra]))
        return None
    cap = int(cap_gib) << 30
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def classify(binary, target, data, work, limiter):
    """Writes the mutant where the command reads it and returns (verdict, detail)."""
    name = os.path.basename(target.path)
    mutant = os.path.join(work, name)
    if name == "relu_x.npy":  # the trace names its .npy beside it
        shutil.copy(os.path.join(ROOT, "traces/examples/relu.jsonl"), os.path.join(work, "relu.jsonl"))
    with open(mutant, "wb") as f:
        f.write(data)
    out = os.path.join(work, "out")
    args = target.command(mutant, out)
    try:
        r = subprocess.run([binary] + args, capture_output=True, timeout=TIMEOUT_S, cwd=work, preexec_fn=limiter)
    except subprocess.TimeoutExpired:
        return "finding", "hang over %d s" % TIMEOUT_S
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode == 0:
        return "ok", ""
    leftovers = [e for e in os.listdir(work) if "partial" in e or e == "out"]
    if r.returncode == 2 and err.startswith("error: ") and err.count("\n") == 1 and not leftovers:
        return "refused", ""
    return "finding", "exit %d, %d lines, leftovers %s: %s" % (r.returncode, err.count("\n"), leftovers, err[:300])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--inputs", type=int, default=600, help="how many mutants to try (default 600)")
    p.add_argument("--seed", type=int, default=28)
    p.add_argument("--binary", default=os.path.join(ROOT, "build/npusim"))
    p.add_argument("--report", help="also write the summary (markdown) to this file")
    p.add_argument("--memory-cap-gib", type=int, default=4,
                   help="address-space cap of each run (default 4); 0 under ASan, which cannot start under one")
    a = p.parse_args()
    rng = random.Random(a.seed)
    env_targets = targets()
    counts, exits, findings = collections.Counter(), collections.Counter(), []
    os.environ["SYSTEMC_DISABLE_COPYRIGHT_MESSAGE"] = "1"
    limiter = memory_limiter(a.memory_cap_gib)
    for i in range(a.inputs):
        target = env_targets[i % len(env_targets)]
        with open(target.path, "rb") as f:
            original = f.read()
        try:
            data = target.mutate(original, rng)
        except Exception:  # a mutation the reader of the original cannot express: plain bytes
            data = mutate_bytes(original, rng)
        work = tempfile.mkdtemp(prefix="npusim-campaign-")
        try:
            verdict, detail = classify(a.binary, target, data, work, limiter)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        counts[verdict] += 1
        exits[(target.kind, verdict)] += 1
        if verdict == "finding":
            findings.append("%s (mutant %d): %s" % (os.path.basename(target.path), i, detail))
        if sys.stderr.isatty():
            print("\r%d/%d tried, %d findings" % (i + 1, a.inputs, len(findings)), end="", file=sys.stderr)
    lines = ["| inputs tried | exit 0 | exit 2, one line, nothing left | findings (crash, exit 3, hang, several lines, leftover) |",
             "|---:|---:|---:|---:|",
             "| %d | %d | %d | %d |" % (a.inputs, counts["ok"], counts["refused"], counts["finding"])]
    kinds = sorted({k for k, _ in exits})
    lines += ["", "| input | tried | exit 0 | exit 2 | findings |", "|---|---:|---:|---:|---:|"]
    for k in kinds:
        n = [exits[(k, v)] for v in ("ok", "refused", "finding")]
        lines.append("| %s | %d | %d | %d | %d |" % (k, sum(n), n[0], n[1], n[2]))
    lines += ["", "Findings:"] + ["- " + f for f in findings] if findings else ["", "No findings."]
    summary = "\n".join(lines)
    print(("\n" if sys.stderr.isatty() else "") + summary)
    if a.report:
        with open(a.report, "w") as f:
            f.write(summary + "\n")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
