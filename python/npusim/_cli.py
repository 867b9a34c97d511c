"""Runs the npusim command-line tool: every simulation is its own process.

SystemC elaborates a design once per process, so the package never links the simulator;
it calls the binary the checkout built, and turns its exit status 2 into InputError.
"""
import os
import pathlib
import subprocess

from .errors import InputError

CHECKOUT = pathlib.Path(__file__).resolve().parents[2]


def binary():
    """The npusim binary: $NPUSIM_BIN if set, else the checkout's build/npusim."""
    path = pathlib.Path(os.environ.get("NPUSIM_BIN", CHECKOUT / "build" / "npusim"))
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: no npusim binary; build it with scripts/build.sh or set NPUSIM_BIN")
    return path


def locate(path):
    """A user's path as given when it exists (or is absolute), else the checkout's file of
    that name: `configs/default.json` works from a notebook in any folder, as the README's
    relative paths do from the checkout."""
    path = pathlib.Path(path)
    if path.is_absolute() or _exists(path) or not _exists(CHECKOUT / path):
        return path
    return CHECKOUT / path


def _exists(path):
    """Path.exists, false for a name the file system refuses (too long): the CLI then
    reports it as bad input, as for a missing file."""
    try:
        return path.exists()
    except OSError:
        return False


def call(args, cwd=None):
    """Runs `npusim ARGS...`; returns the CompletedProcess (text stdout/stderr).

    Exit status 2 (bad input) raises InputError with the CLI's own line; any other
    failure raises RuntimeError with the CLI's standard error.
    """
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    done = subprocess.run([str(binary()), *map(str, args)], cwd=cwd or CHECKOUT, env=env,
                          capture_output=True, text=True)
    check_exit(args, done.returncode, done.stderr)
    return done


def check_exit(args, status, stderr):
    """Exit status 2 (bad input) raises InputError with the CLI's own last line; any other
    failure raises RuntimeError with its standard error."""
    if status == 2:
        lines = stderr.strip().splitlines()
        raise InputError.from_cli_line(lines[-1] if lines else "error: bad input")
    if status != 0:
        raise RuntimeError(f"npusim {' '.join(map(str, args))} failed (exit {status}): {stderr.strip()}")
