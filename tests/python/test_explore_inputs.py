"""Issue 42: the explorer's spec is read as strictly as every other npusim input, its axes are
bounded, the values it writes into a workload are checked before any trial, a spec mistake
found late leaves no folder behind, and a signal stops it within a second.
Run: /usr/bin/python3 -m pytest tests/python/test_explore_inputs.py (ctest: python_explore_inputs).
"""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tests" / "python"))

import npusim.exploration as exploration  # noqa: E402
from npusim.errors import InputError  # noqa: E402
from test_explore import write_spec  # noqa: E402

BINARY = os.environ.get("NPUSIM_BIN", str(ROOT / "build" / "npusim"))


def write_text_spec(folder, text):
    """A spec written as text (what json.dumps cannot write: duplicate keys, NaN ...)."""
    write_spec(folder)  # its workload beside it
    path = folder / "spec.json"
    path.write_text(text)
    return path


def refused(spec, out):
    with pytest.raises(InputError) as raised:
        exploration.explore(spec, out=out)
    assert not out.exists(), "nothing runs before the spec is checked"
    return raised.value


@pytest.mark.parametrize("text, place, words", [
    ('{"config": "a", "config": "b"}', "line 1", "given twice"),
    ('{"trials": 4,\n "constraints": [{"metric": "area", "max": NaN}]}', "line 2", "NaN is not JSON"),
    ('{"axes": [{"name": "n", "pointer": "/core/nram/capacity_bytes", "log": [1024, Infinity]}]}', "line 1",
     "Infinity is not JSON"),
    ('{"trials": 1e999}', "line 1", "beyond the range"),
    ("[" * 100000 + "]" * 100000, "line 1", "nesting deeper than 64 levels"),
])
def test_the_spec_is_strict_json(tmp_path, text, place, words):
    spec = write_text_spec(tmp_path, text)
    error = refused(spec, tmp_path / "out")
    assert error.place == place and words in error.reason


def test_a_nested_spec_is_one_line_and_exit_2_from_the_cli(tmp_path):
    spec = write_text_spec(tmp_path, '{"a": ' * 100000 + "1" + "}" * 100000)
    done = subprocess.run([BINARY, "explore", str(spec), "--out", str(tmp_path / "out")], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "nesting deeper than 64 levels" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


TOO_LONG = "x" * 5000  # past the file system's limit on a name (NAME_MAX is 255 on Linux)


def test_a_file_name_too_long_in_the_spec_is_refused_naming_the_key(tmp_path):
    # Found by the mutation campaign (seed 5151, mutant 385): a traceback, exit 1.
    spec = write_spec(tmp_path, config=TOO_LONG)
    error = refused(spec, tmp_path / "out")
    assert error.place == "/config" and "File name too long" in error.reason


@pytest.mark.parametrize("where", ["spec", "out"])
def test_a_spec_or_out_name_too_long_is_one_line_and_exit_2_from_the_cli(tmp_path, where):
    spec = write_spec(tmp_path / "s")
    out = tmp_path / "new" / ("y" * 300) / "out"
    if where == "spec":
        spec = tmp_path / (TOO_LONG + ".json")
    done = subprocess.run([BINARY, "explore", str(spec), "--out", str(out)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr[-400:]
    assert "File name too long" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "new").exists(), "nothing is left behind"


@pytest.mark.parametrize("axis, place", [
    ({"name": "n", "pointer": "/core/nram/capacity_bytes", "log": [1, 1e12], "base": 1.000000001}, "/axes/0/base"),
    ({"name": "f", "pointer": "/chip/clock_mhz", "range": [100.0, 2000.0], "step": 1e-300}, "/axes/0/step"),
])
def test_axes_are_bounded_before_they_are_listed(tmp_path, axis, place):
    spec = write_spec(tmp_path, axes=[axis])
    start = time.monotonic()
    error = refused(spec, tmp_path / "out")
    assert time.monotonic() - start < 5
    assert error.place == place


@pytest.mark.parametrize("change, place", [
    ({"axes": [{"name": "k", "pointer": "/layers/0/k", "in": "workload", "values": [3, 0]}]}, "/axes/0/values"),
    ({"axes": [{"name": "slaves", "pointer": "/core/matrix/slaves", "values": [2, 4]}],
      "set": [{"pointer": "/layers/0/co", "in": "workload", "value": -4}]}, "/set/0/value"),
    ({"axes": [{"name": "k", "pointer": "/layers/0/kernel", "in": "workload", "values": [3, 5]}]}, "/axes/0/values"),
])
def test_workload_values_are_checked_before_any_trial(tmp_path, change, place):
    spec = write_spec(tmp_path, **change)
    error = refused(spec, tmp_path / "out")
    assert error.file == str(spec) and error.place == place


def test_a_metric_that_is_no_number_leaves_no_folder_and_the_fixed_spec_runs_there(tmp_path):
    out = tmp_path / "explorations" / "out"
    spec = write_spec(tmp_path, trials=2, batch=2, constraints=[], objectives=["cycles", "/config"])
    with pytest.raises(InputError) as raised:
        exploration.explore(spec, out=out)
    assert raised.value.place == "/objectives/1/metric" and "not a number" in raised.value.reason
    assert not (tmp_path / "explorations").exists(), "exit 2 leaves nothing behind"
    fixed = write_spec(tmp_path, trials=2, batch=2, constraints=[], objectives=["cycles", "area"])
    assert len(exploration.explore(fixed, out=out).trials) == 2


def test_a_signal_while_the_spec_is_checked_stops_the_explorer_within_a_second(tmp_path):
    # 400 values of a config axis: each is validated by the CLI before any trial (seconds).
    spec = write_spec(tmp_path, axes=[{"name": "mhz", "pointer": "/chip/clock_mhz", "values": list(range(100, 500))}],
                      constraints=[])
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), NPUSIM_BIN=BINARY)
    child = subprocess.Popen([sys.executable, "-m", "npusim.exploration", str(spec), "--out", str(tmp_path / "out"),
                              "--quiet"], env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not validate_running(child.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert child.poll() is None
    sent = time.monotonic()
    child.send_signal(signal.SIGTERM)
    status = child.wait(timeout=30)
    # Within a second on a quiet machine (about 0.3 s measured); the bound leaves room for a
    # 2-core CI machine running other tests at once (1.1 s seen at load 8).
    assert time.monotonic() - sent < 2.0
    # Its handler stops it: exit 128 + 15. (Any child seen earlier may be one that Python's
    # imports start, such as platform's `uname -p`, before the handler exists: SIGTERM then ends
    # the explorer by its default action, status -15, with nothing written yet either.)
    assert status == 128 + signal.SIGTERM
    assert not (tmp_path / "out").exists()


def validate_running(pid):
    """Whether one of pid's children is an `npusim validate` (the spec's probes have begun)."""
    children = pathlib.Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    for child in children:
        try:
            if b"\0validate\0" in pathlib.Path(f"/proc/{child}/cmdline").read_bytes():
                return True
        except OSError:
            pass
    return False
