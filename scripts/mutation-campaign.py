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


DRAM_TIMING_KEYS = ["cl", "cwl", "trcd", "trp", "tras", "trc", "trrd_s", "trrd_l", "tccd_s", "tccd_l", "tfaw", "twr",
                    "twtr_s", "twtr_l", "trtp", "trtw", "trefi", "trfc", "trfc_pb"]


def mutate_dram_timing(data, rng):
    """A DRAM preset whose timing keys move toward and past what lets an access fit between
    refreshes (issue 42: trefi just above trfc + trp, a huge trcd, per-bank refresh with a
    trfc_pb near trefi), or any other odd value."""
    doc = json.loads(data)
    banked = doc["chip"]["dram"]["banked"]
    for _ in range(rng.randrange(1, 4)):
        key = rng.choice(DRAM_TIMING_KEYS)
        trefi, trfc, trp = banked["trefi"], banked["trfc"], banked["trp"]
        choices = [0, 1, trefi, trefi - 1, trefi + 1, trfc + trp + rng.randrange(0, 80), 999999, 1000000, 1000001,
                   rng.randrange(0, 2 * trefi + 2), -1, 2**32, 3.5, None]
        banked[key] = rng.choice(choices)
    if rng.random() < 0.4:
        banked["refresh_mode"] = "per_bank"
        if rng.random() < 0.5:
            banked["trfc_pb"] = rng.choice([banked["trefi"] - rng.randrange(0, 120), banked["trefi"],
                                            banked["trefi"] * 2, rng.randrange(1, 400)])
    doc["extends"] = os.path.join(ROOT, "configs/default.json")  # the presets' ../default.json, from anywhere
    return json.dumps(doc).encode()


def onnx_op_mutants():
    """Every attribute and constant mutant of the models with the new ops (scripts/onnx_mutants.py)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import onnx_mutants
    found = []
    for model in onnx_mutants.MODELS:
        with open(os.path.join(ROOT, model), "rb") as f:
            found += [(model, data) for _, data in onnx_mutants.mutants(f.read())]
    return found


def mutate_onnx_op(data, rng, _cache={}):
    if "all" not in _cache:
        _cache["all"] = onnx_op_mutants()
    return rng.choice(_cache["all"])[1]


EXPLORE_ODD = ['"max": NaN', '"max": Infinity', '"trials": 1e999', '"seed": -Infinity']


def small_explore_spec(workload):
    """A one-axis, two-trial exploration of the tiny network."""
    spec = {"config": os.path.join(ROOT, "configs/default.json"), "workload": workload,
            "axes": [{"name": "slaves", "pointer": "/core/matrix/slaves", "values": [8, 16]},
                     {"name": "nram", "pointer": "/core/nram/capacity_bytes", "log": [65536, 262144], "base": 2}],
            "objectives": ["cycles"], "constraints": [{"metric": "area", "max": 100}], "trials": 2, "batch": 2,
            "method": "random"}
    path = os.path.join(tempfile.mkdtemp(prefix="npusim-campaign-spec-"), "explore.json")
    with open(path, "w") as f:
        json.dump(spec, f)
    return path


def mutate_explore_spec(data, rng):
    """Strict-JSON breakers, unbounded axes, workload values and pointers, and plain JSON mutants."""
    doc = json.loads(data)
    kind = rng.choice(["json", "json", "text", "axis", "workload", "nest"])
    if kind == "json":
        return mutate_json_text(data.decode(), rng)
    if kind == "text":
        text = json.dumps(doc)
        i = text.index("{") + 1
        odd = rng.choice(EXPLORE_ODD + ['"trials": 2', '"axes": []'])
        return (text[:i] + odd + ", " + text[i:]).encode()  # a duplicate key, NaN or Infinity
    if kind == "axis":
        doc["axes"][rng.randrange(2)] = rng.choice([
            {"name": "a", "pointer": "/core/nram/capacity_bytes", "log": [1, 1e12], "base": 1.000000001},
            {"name": "a", "pointer": "/chip/clock_mhz", "range": [100.0, 2000.0], "step": rng.choice([1e-300, 1e-9])},
            {"name": "a", "pointer": "/core/matrix/slaves", "range": [rng.choice([-5, 0, 1]), rng.choice([2**63, 4, 1e308])]},
            {"name": "a", "pointer": "/core/matrix/slaves", "values": list(range(rng.randrange(1, 200000)))}])
    elif kind == "workload":
        entry = {"pointer": rng.choice(["/layers/0/co", "/layers/0/k", "/layers/0/nope", "/input/h", "/layers/99/k"]),
                 "in": "workload"}
        if rng.random() < 0.5:
            doc.setdefault("set", []).append(dict(entry, value=rng.choice(ODD_VALUES)))
        else:
            doc["axes"].append(dict(entry, name="w", values=[rng.choice([3, 1]), rng.choice(ODD_VALUES[:8])]))
    else:
        depth = rng.choice([65, 1000, 100000])
        return ('{"axes": ' + "[" * depth + "]" * depth + "}").encode()
    return json.dumps(doc).encode()


HOSTILE_NAMES = ["/tmp/npusim-campaign-victim/precious", "../escaped", "../../escaped", "sub/dir", "a/../../b", "",
                 ".", "..", "-", "x" * 300, "\x00nul", "name\nline", "ümlaut", "/", "~/home", "input", "conv1"]
API_DRIVER = r'''
import json, pathlib, sys, tempfile, numpy as np
sys.path.insert(0, sys.argv[3])
import npusim
spec = json.loads(pathlib.Path(sys.argv[1]).read_text())
tempfile.tempdir = sys.argv[2]
try:
    if spec["call"] == "set":
        npusim.Chip.load().set(spec["pointer"], float(spec["value"]) if spec["value"] in ("nan", "inf") else spec["value"])
    else:
        inputs = {spec["name"]: np.zeros(spec["shape"], np.int8)}
        npusim.run(None, spec["workload"], functional=True, inputs=inputs, out=spec.get("out"))
except npusim.InputError as e:
    print("error: " + str(e).replace("\n", "\\n"), file=sys.stderr)
    sys.exit(2)
'''


def mutate_api_names(data, rng):
    """One npusim.run or Chip.set call with a hostile name, as a small JSON request for API_DRIVER."""
    doc = json.loads(data)
    if rng.random() < 0.15:
        return json.dumps({"call": "set", "pointer": rng.choice(["/core/matrix/slaves", "/nope", "core"]),
                           "value": rng.choice(["nan", "inf", 8, None, "x"])}).encode()
    name = rng.choice(HOSTILE_NAMES)
    workload = doc
    if rng.random() < 0.6 and name:
        workload["layers"][0]["name"] = name
        workload["name"] = rng.choice([name, "tiny", "../w"])
    shape = rng.choice([[16, 3, 3, 8], [2, 12, 12, 8], [1], [65536, 4]])
    return json.dumps({"call": "run", "workload": workload, "name": name, "shape": shape}).encode()


class Target:
    """One shipped input, how to mutate it, and the command that reads it (an npusim command,
    or with `program` another program's arguments: the Python API driver)."""

    def __init__(self, kind, path, mutate, command, program=None):
        self.kind, self.path, self.mutate, self.command, self.program = kind, path, mutate, command, program


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
    return found + issue42_targets(tiny)


def issue42_targets(tiny):
    """Issue 42's inputs: DRAM timing sets, the new ONNX ops' attributes and constants,
    exploration specs and the Python API's names."""
    found = []
    for preset in shipped("configs/dram", ".json"):
        found.append(Target("dram timing", preset, mutate_dram_timing,
                            lambda f, out: ["run", "-q", "--config", f, "--workload", tiny, "--out", out]))
    model = os.path.join(ROOT, "tests/onnx/data/shuffle_blocks.onnx")
    for command in (["validate"], ["compile", "-q", "-w"]):
        found.append(Target("onnx op", model, mutate_onnx_op,
                            lambda f, out, c=command: c + [f] + (["-o", out] if len(c) > 1 else [])))
    found.append(Target("explore spec", small_explore_spec(tiny), mutate_explore_spec,
                        lambda f, out: ["explore", f, "--out", out, "-j", "1", "--quiet"]))
    driver = os.path.join(tempfile.mkdtemp(prefix="npusim-campaign-api-"), "api.py")
    with open(driver, "w") as f:
        f.write(API_DRIVER)
    found.append(Target("python api", tiny, mutate_api_names,
                        lambda f, out: [f, os.path.join(os.path.dirname(f), "tmp"), os.path.join(ROOT, "python")],
                        program=["/usr/bin/python3", driver]))
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
    if target.program:
        os.makedirs(os.path.join(work, "tmp"))
    victim = _plant_victim()
    child = subprocess.Popen((target.program or [binary]) + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=work, preexec_fn=limiter, start_new_session=True)
    try:
        _, stderr = child.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, 9)  # the command and whatever it started (trials, a sweep's runs)
        child.communicate()
        return "finding", "hang over %d s" % TIMEOUT_S
    if _group_alive(child.pid):
        os.killpg(child.pid, 9)
        return "finding", "exit %d but processes it started still run" % child.returncode
    r = subprocess.CompletedProcess(args, child.returncode, b"", stderr)
    err = r.stderr.decode("utf-8", "replace")
    touched = _victim_touched(victim)
    extra = _leftovers(work, name, target)
    if r.returncode == 0 and not touched and not extra:
        return "ok", ""
    leftovers = [e for e in os.listdir(work) if "partial" in e or e == "out" or e in extra] + touched
    if r.returncode == 2 and err.startswith("error: ") and err.count("\n") == 1 and not leftovers:
        return "refused", ""
    return "finding", "exit %d, %d lines, leftovers %s: %s" % (r.returncode, err.count("\n"), leftovers, err[:300])


VICTIM = "/tmp/npusim-campaign-victim"


def _plant_victim():
    """A user's files where a hostile name points (the API's absolute-path layer names)."""
    os.makedirs(VICTIM, exist_ok=True)
    for f in ("precious.weights.npy", "precious.npy"):
        with open(os.path.join(VICTIM, f), "w") as out:
            out.write("the user's data")
    return sorted(os.listdir(VICTIM))


def _victim_touched(before):
    now = sorted(os.listdir(VICTIM))
    changed = [f for f in now if open(os.path.join(VICTIM, f), "rb").read() != b"the user's data"]
    return (["victim folder: " + ", ".join(sorted(set(now) ^ set(before)))] if now != before else []) + \
        ["victim file changed: " + f for f in changed]


def _group_alive(pgid):
    """Whether any process of the command's session is still running (zombies aside)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def _leftovers(work, mutant, target):
    """What is left in the work folder besides the mutant (and, for the API, its empty tmp)."""
    keep = {mutant, "relu.jsonl", "relu_x.npy"}
    if target.program:
        keep.add("tmp")
        extra = [os.path.join("tmp", e) for e in os.listdir(os.path.join(work, "tmp"))]
    else:
        extra = []
    # The output place and what a command writes beside it (compile's out.data/) are its own.
    return extra + [e for e in os.listdir(work) if e not in keep and e != "out" and not e.startswith("out.")]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--inputs", type=int, default=600, help="how many mutants to try (default 600)")
    p.add_argument("--seed", type=int, default=28)
    p.add_argument("--binary", default=os.path.join(ROOT, "build/npusim"))
    p.add_argument("--report", help="also write the summary (markdown) to this file")
    p.add_argument("--kinds", help="only these inputs, comma-separated (e.g. 'dram timing,onnx op')")
    p.add_argument("--memory-cap-gib", type=int, default=4,
                   help="address-space cap of each run (default 4); 0 under ASan, which cannot start under one")
    a = p.parse_args()
    rng = random.Random(a.seed)
    env_targets = [t for t in targets() if not a.kinds or t.kind in a.kinds.split(",")]
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
