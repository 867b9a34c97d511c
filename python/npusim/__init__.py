"""npusim from Python: load a chip, run workloads, explain mappings, sweep and explore.

Each simulation runs in its own npusim process (SystemC elaborates once per process);
this package hides that. See docs/python-api.md.

The submodules load on first use, so `from npusim import charts` (the shell scripts' charts)
needs matplotlib only, and `import npusim` is quick.
"""
import importlib

from .errors import InputError

_EXPORTS = {
    "Chip": "chip",
    "run": "running",
    "Run": "running",
    "explain": "explaining",
    "sweep": "sweeping",
    "SweepResult": "sweeping",
}

__all__ = ["InputError", "bundled", "explore", *_EXPORTS]


def __getattr__(name):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'npusim' has no attribute '{name}'")


def bundled(path):
    """The absolute path of a file as the API finds it: from the current directory when it
    is there, else the checkout's (bundled("configs/default.json")); for specs and the like
    that resolve paths relative to themselves."""
    from . import _cli

    return _cli.locate(path).absolute()


def explore(*args, **kwargs):
    """Design-space exploration (npusim.exploration; docs/exploration.md)."""
    from .exploration import explore as run_exploration

    return run_exploration(*args, **kwargs)
