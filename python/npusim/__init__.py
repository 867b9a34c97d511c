"""npusim from Python: load a chip, run workloads, explain mappings, sweep and explore.

Each simulation runs in its own npusim process (SystemC elaborates once per process);
this package hides that. See docs/python-api.md.
"""
from .errors import InputError

__all__ = ["InputError"]
