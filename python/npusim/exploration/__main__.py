"""`python3 -m npusim.exploration SPEC [options]`: what `npusim explore` runs."""
import argparse
import os
import signal
import sys

from ..errors import InputError
from . import batches, explore


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="npusim explore", description="Search a design space (docs/exploration.md)")
    parser.add_argument("spec")
    parser.add_argument("-o", "--out")
    parser.add_argument("--trials", type=int)
    parser.add_argument("--seed", type=int)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--backend", choices=["local", "slurm"])
    parser.add_argument("-q", "--quiet", action="store_true")
    return parser.parse_args(argv)


def _stop(signum, frame):
    """SIGTERM, SIGINT (Ctrl-C) and SIGHUP stop the running sweep cleanly and then the
    explorer (exit status 128 + signal); the next run resumes."""
    batches.request_stop(signum)


def main(argv=None):
    args = _arguments(argv)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        if signal.getsignal(sig) is not signal.SIG_IGN:  # nohup: keep ignoring a hang-up
            signal.signal(sig, _stop)
    try:
        result = explore(args.spec, out=args.out, trials=args.trials, seed=args.seed, jobs=args.jobs,
                         backend=args.backend, quiet=args.quiet)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not args.quiet:
        failed = int((result.trials["state"] == "failed").sum())
        infeasible = int(((result.trials["state"] == "complete") & ~result.trials["feasible"].astype(bool)).sum())
        designs = int(result.trials["same_as"].isna().sum())
        print(f"explore: {len(result.trials)} trials: {result.ran} new, {len(result.trials) - result.ran} already "
              f"done; {designs} designs simulated (the others repeat one); {failed} failed, {infeasible} broke a "
              f"constraint; Pareto front: {len(result.pareto)} designs")
        for label, name in (("trials", "trials.csv"), ("pareto", "pareto.csv"), ("chart", "pareto.png")):
            print(f"{label}: {result.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
