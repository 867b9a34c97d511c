"""JSON read as strictly as the CLI reads it (sim/common: strict JSON): a key given twice in one
object, NaN, Infinity, a number beyond a double's range and nesting deeper than 64 levels are
errors, not values. Python's json module takes all of them (and recurses until it overflows
its stack on deep nesting), so every file the package reads goes through load_text."""
import json
import re

MAX_DEPTH = 64  # as the CLI's readers


class StrictJsonError(ValueError):
    """The place ("line N") and the reason, for an InputError naming the file."""

    def __init__(self, place, reason):
        super().__init__(f"{place}: {reason}" if place else reason)
        self.place, self.reason = place, reason


def _line_of(text, index):
    return text.count("\n", 0, index) + 1


def _check_depth(text):
    """Refuses nesting deeper than MAX_DEPTH before the parser recurses into it."""
    depth, in_string, escaped = 0, False, False
    for i, c in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise StrictJsonError(f"line {_line_of(text, i)}", f"nesting deeper than {MAX_DEPTH} levels")
        elif c in "]}":
            depth -= 1


def _pairs(text):
    def hook(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                lines = [_line_of(text, m.start()) for m in re.finditer(re.escape(json.dumps(key)) + r"\s*:", text)]
                where = f"line {lines[1]}" if len(lines) > 1 else ""
                raise StrictJsonError(where, f"key {json.dumps(key)} is given twice in one object" +
                                      (f" (first at line {lines[0]})" if len(lines) > 1 else ""))
            seen.add(key)
        return dict(pairs)
    return hook


def _constant(text):
    def refuse(name):
        at = re.search(r"(?<![\w\"])-?" + name + r"\b", text)
        raise StrictJsonError(f"line {_line_of(text, at.start())}" if at else "",
                              f"{name} is not JSON (a number must be finite)")
    return refuse


def _float(text):
    def read(number):
        value = float(number)
        if value in (float("inf"), float("-inf")):
            at = text.find(number)
            raise StrictJsonError(f"line {_line_of(text, at)}" if at >= 0 else "",
                                  f"{number[:40]} is beyond the range of a number")
        return value
    return read


def load_text(text):
    """The document in `text`; StrictJsonError (place, reason) when it is not strict JSON."""
    _check_depth(text)
    try:
        return json.loads(text, object_pairs_hook=_pairs(text), parse_constant=_constant(text),
                          parse_float=_float(text))
    except json.JSONDecodeError as e:
        raise StrictJsonError(f"line {e.lineno}", f"not JSON: {e.msg}") from None
    except RecursionError:
        raise StrictJsonError("", f"nesting deeper than {MAX_DEPTH} levels") from None
