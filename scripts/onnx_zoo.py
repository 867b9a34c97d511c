#!/usr/bin/python3
"""The ONNX model zoo: exports torchvision's classification and segmentation families,
stock nn.TransformerEncoder/Decoder stacks and GPT-2- and BERT-style blocks (random seeded
weights, nothing downloaded) and runs each through `npusim run --workload M.onnx` in timing
mode, comparing npusim's MAC count (the layer table's: the sum of report.json's
workload rows' `macs`) with PyTorch's own (scripts/zoo_models.py says how it is counted).
The layer table counts what each layer computes; `energy.macs` counts what the engines issue,
which for a dilated conv includes the zero taps of the dense kernel the Wfold unit runs.

    scripts/onnx_zoo.py --out /tmp/zoo --npusim build/npusim            # all models, prints the table
    scripts/onnx_zoo.py --out /tmp/zoo --npusim build/npusim --models resnet18,gpt2_block
    scripts/onnx_zoo.py --out /tmp/zoo --npusim build/npusim --check    # exit 1 on a failure

Exported files and run folders go under --out (keep it outside the repository: VGG-16 alone
is 528 MB); a model already exported there with the same seed is not exported again
(manifest.json holds its MACs). --status FILE also writes the table as Markdown.

A model passes when npusim runs it with MACs within 1 % of PyTorch's count, or refuses it
with exactly one line "error: ..." naming the node (or graph input) and exit status 2;
anything else (a crash, a wrong count, a message of several lines) fails --check.
Needs Debian's python3-torch, python3-torchvision and python3-onnx; run with /usr/bin/python3.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import torch
except ImportError:  # ctest reports exit 77 as skipped
    print("skipped: python3-torch is not installed (apt-get install python3-torch python3-torchvision)")
    sys.exit(77)
import zoo_models  # noqa: E402

MAC_TOLERANCE = 0.01


def export_one(name, out_dir, seed):
    """Exports one model; returns its manifest entry (file, opset, PyTorch's MACs)."""
    builder, opset = zoo_models.zoo()[name]
    torch.manual_seed(seed)
    model, example = builder()
    model.eval()
    macs = zoo_models.count_macs(model, example)
    inputs = example if isinstance(example, tuple) else (example,)
    names = [f"input{i}" if len(inputs) > 1 else "input" for i in range(len(inputs))]
    path = os.path.join(out_dir, f"{name}.onnx")
    started = time.time()
    # Autograd stays on: nn.TransformerEncoderLayer's inference fast path has no export.
    torch.onnx.export(model, inputs, path, opset_version=opset, do_constant_folding=True,
                      input_names=names, output_names=["output"], training=torch.onnx.TrainingMode.EVAL)
    return {"file": os.path.basename(path), "opset": opset, "seed": seed, "macs": macs,
            "inputs": {n: list(t.shape) for n, t in zip(names, inputs)},
            "export_seconds": round(time.time() - started, 1)}


def load_manifest(out_dir):
    path = os.path.join(out_dir, "manifest.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def save_manifest(out_dir, manifest):
    path = os.path.join(out_dir, "manifest.json")
    with open(path + ".tmp", "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)


def ensure_exported(names, out_dir, seed):
    """Exports the models the manifest lacks (or has with another seed)."""
    manifest = load_manifest(out_dir)
    for name in names:
        entry = manifest.get(name)
        if entry and entry.get("seed") == seed and os.path.exists(os.path.join(out_dir, entry["file"])):
            continue
        print(f"exporting {name} ...", file=sys.stderr, flush=True)
        manifest[name] = export_one(name, out_dir, seed)
        save_manifest(out_dir, manifest)
    return manifest


def run_npusim(npusim, out_dir, name, entry, config):
    """Runs one model in timing mode; returns (exit status, stderr, npusim's MACs or None, seconds)."""
    run_dir = os.path.join(out_dir, "runs", name)
    command = [npusim, "run", "--workload", os.path.join(out_dir, entry["file"]), "--quiet", "--out", run_dir]
    if config:
        command += ["--config", config]
    started = time.time()
    result = subprocess.run(command, capture_output=True, text=True,
                            env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    seconds = time.time() - started
    macs = None
    if result.returncode == 0:
        with open(os.path.join(run_dir, "report.json")) as f:
            macs = sum(row.get("macs", 0) for row in json.load(f)["workload"]["rows"])
    return result.returncode, result.stderr, macs, seconds


def verdict(status, stderr, npusim_macs, torch_macs):
    """(passed, short status, note) of one run."""
    lines = stderr.strip().splitlines()
    if status == 0:
        off = abs(npusim_macs - torch_macs) / max(torch_macs, 1)
        if off <= MAC_TOLERANCE:
            return True, "ok", f"MACs match ({off:.2%} off)"
        return False, "WRONG MACs", f"npusim {npusim_macs:,} vs PyTorch {torch_macs:,} ({off:.2%} off)"
    if status == 2 and len(lines) == 1 and lines[0].startswith("error: "):
        names_place = "node " in lines[0] or "graph input " in lines[0]
        shown = lines[0].split("; supported ops:")[0]  # the table needs the node and reason, not the list
        return (True, "refused", shown) if names_place else (False, "REFUSED, NO NODE", shown)
    return False, f"FAILED (exit {status})", " | ".join(lines[-3:]) or "(no message)"


def table(rows):
    out = ["| model | status | npusim MACs | PyTorch MACs | s | first refusing node / note |",
           "|---|---|---:|---:|---:|---|"]
    for name, short, npusim_macs, torch_macs, seconds, note in rows:
        shown = f"{npusim_macs:,}" if npusim_macs is not None else "-"
        out.append(f"| {name} | {short} | {shown} | {torch_macs:,} | {seconds:.2f} | {note.replace('|', '/')} |")
    return "\n".join(out)


def summary(rows, passed):
    ran = sum(1 for row in rows if row[1] == "ok")
    refused = sum(1 for row in rows if row[1] == "refused")
    return (f"{ran} of {len(rows)} models run with MACs within {MAC_TOLERANCE:.0%} of PyTorch's count; "
            f"{refused} refused with one line; {len(rows) - passed} failed")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="directory for the .onnx files, manifest.json and runs/")
    parser.add_argument("--npusim", help="npusim binary; without it the models are only exported")
    parser.add_argument("--models", help="comma-separated names (default: the whole zoo); --list names them")
    parser.add_argument("--list", action="store_true", help="print the zoo's model names and exit")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random weights (default 1)")
    parser.add_argument("--config", help="hardware config for npusim (default: npusim's)")
    parser.add_argument("--status", help="also write the table as Markdown to this file")
    parser.add_argument("--check", action="store_true", help="exit 1 unless every model passes")
    return parser.parse_args()


def chosen_models(args):
    every = list(zoo_models.zoo())
    names = args.models.split(",") if args.models else every
    unknown = [n for n in names if n not in every]
    if unknown:
        print(f"error: --models: unknown model '{unknown[0]}' (--list names them)", file=sys.stderr)
        sys.exit(2)
    return names


def run_zoo(args, names, manifest):
    rows, passed = [], 0
    for name in names:
        entry = manifest[name]
        status, stderr, npusim_macs, seconds = run_npusim(args.npusim, args.out, name, entry, args.config)
        ok, short, note = verdict(status, stderr, npusim_macs, entry["macs"])
        passed += ok
        rows.append((name, short, npusim_macs, entry["macs"], seconds, note))
    return rows, passed


def main():
    args = parse_arguments()
    if args.list:
        print("\n".join(zoo_models.zoo()))
        return 0
    names = chosen_models(args)
    os.makedirs(args.out, exist_ok=True)
    manifest = ensure_exported(names, args.out, args.seed)
    if not args.npusim:
        return 0
    rows, passed = run_zoo(args, names, manifest)
    text = table(rows) + "\n\n" + summary(rows, passed) + "\n"
    print(text, end="")
    if args.status:
        with open(args.status, "w") as f:
            f.write(f"# ONNX zoo ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {args.npusim})\n\n{text}")
    return 1 if args.check and passed < len(rows) else 0


if __name__ == "__main__":
    sys.exit(main())
