"""A hardware config in Python: loaded, resolved and checked by the CLI itself."""
import copy
import json
import pathlib
import tempfile

from . import _cli
from .errors import InputError
from .pointer import get_at, set_at


class Chip:
    """A fully resolved hardware config (what `npusim validate CONFIG` prints).

    Overrides go in by JSON pointer, as sweep axes do, and each change is checked at once
    by `npusim validate`, so a bad value raises InputError with the CLI's own reason.
    """

    def __init__(self, config, origin="chip.json"):
        self.config = config
        self.origin = str(origin)  # the file it came from: names it in messages and reports

    @classmethod
    def load(cls, path="configs/default.json"):
        """Reads a config file (its `extends` chain merged), as `npusim validate` does."""
        done = _cli.call(["validate", _cli.locate(path)], cwd=pathlib.Path.cwd())
        return cls(json.loads(done.stdout), path)

    @property
    def file_name(self):
        """The base name reports give the config (report.json "config"); chip.json when the
        origin has none a file may take (".."), so the scratch copy stays in its folder."""
        name = pathlib.Path(self.origin).name
        return name if name not in ("", ".", "..") else "chip.json"

    def get(self, pointer):
        """The value at a JSON pointer, e.g. chip.get("/core/matrix/slaves")."""
        return get_at(self.config, pointer)

    def set(self, pointer, value=None):
        """Sets one pointer, or a dict {pointer: value}; checks the result with the CLI.

        Returns the chip (so calls chain). On bad input the chip is left as it was and
        InputError carries the CLI's place and reason.
        """
        changes = pointer if isinstance(pointer, dict) else {pointer: value}
        changed = copy.deepcopy(self.config)
        for where, what in changes.items():
            try:
                _check_json_value(what)
                set_at(changed, where, what)
            except (KeyError, IndexError, ValueError, TypeError) as e:
                raise InputError(f"{self.origin}: {where}: {e}", self.origin, where, str(e)) from None
        self.config = self._validated(changed)
        return self

    def copy(self):
        """An independent chip with the same config."""
        return Chip(copy.deepcopy(self.config), self.origin)

    def write(self, path):
        """Writes the resolved config as a JSON file any npusim command reads."""
        path = pathlib.Path(path)
        path.write_text(json.dumps(self.config, indent=2) + "\n")
        return path

    def _validated(self, config):
        """The config as `npusim validate` resolves it; InputError names this chip's origin."""
        with tempfile.TemporaryDirectory(prefix="npusim-chip-") as tmp:
            path = Chip(config, self.origin).write(pathlib.Path(tmp) / self.file_name)
            try:
                done = _cli.call(["validate", path])
            except InputError as e:
                raise e.renamed({str(path): self.origin}) from None
        return json.loads(done.stdout)

    def __repr__(self):
        return f"Chip({self.origin!r})"


def _check_json_value(value):
    """A value a config file can hold: NaN and the infinities have no JSON form (the CLI's strict
    reader would blame the scratch file), nor have Python objects."""
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        raise ValueError(f"{value!r} is not a JSON number (NaN and infinities have no JSON form)") from None
    except TypeError:
        raise TypeError(f"a {type(value).__name__} is not a JSON value") from None


def as_chip(chip):
    """A Chip from a Chip, a config path or None (the default chip)."""
    if isinstance(chip, Chip):
        return chip
    return Chip.load(chip if chip is not None else "configs/default.json")
