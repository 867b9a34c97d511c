"""Issue 42: the names a caller gives npusim.run and Chip.set are checked before anything is
written, and the package writes only inside its own scratch folder."""
import json
import math
import pathlib
import tempfile
import time

import numpy as np
import pytest

import npusim

TINY = "traces/workloads/tiny.json"


def tiny_dict(name="tiny"):
    doc = json.loads(pathlib.Path(TINY).read_text())
    doc["name"] = name
    return doc


def conv1_weights():
    return np.ones((16, 3, 3, 8), np.int8)


def test_a_layer_named_by_an_absolute_path_leaves_the_users_file_alone(tmp_path):
    victim = tmp_path / "precious"
    (tmp_path / "precious.weights.npy").write_bytes(b"the user's own data")
    doc = tiny_dict()
    doc["layers"][0]["name"] = str(victim)
    try:
        npusim.run(None, doc, functional=True, inputs={str(victim): conv1_weights()})
    except npusim.InputError:
        pass  # whether the CLI takes such a layer name is its business; the file is what matters
    assert (tmp_path / "precious.weights.npy").read_bytes() == b"the user's own data"


def test_a_layer_name_with_dot_dot_writes_nothing_outside_the_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the scratch folder goes inside tmp_path
    doc = tiny_dict()
    doc["layers"][0]["name"] = "../escaped"
    try:
        npusim.run(None, doc, functional=True, inputs={"../escaped": conv1_weights()})
    except npusim.InputError:
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # the scratch folder is gone, nothing beside it


def test_a_layer_named_sub_dir_is_bound_not_a_file_not_found(tmp_path):
    doc = tiny_dict()
    doc["layers"][0]["name"] = "sub/dir"
    try:
        npusim.run(None, doc, functional=True, inputs={"sub/dir": conv1_weights()})
    except npusim.InputError:
        pass  # exit 2 from the CLI is fine; FileNotFoundError from the package is not


def test_an_unknown_inputs_name_is_an_input_error_naming_it():
    with pytest.raises(npusim.InputError) as caught:
        npusim.run(None, TINY, functional=True, inputs={"conv9": conv1_weights()})
    assert caught.value.place == "inputs['conv9']" and "conv1" in caught.value.reason
    with pytest.raises(npusim.InputError) as caught:
        npusim.run(None, "traces/examples/relu.jsonl", functional=True, inputs={"y": np.zeros(4, np.int8)})
    assert caught.value.place == "inputs['y']"


def test_an_input_error_for_a_dict_workload_names_it_briefly():
    doc = tiny_dict("briefly")
    doc["layers"][0]["co"] = 0
    with pytest.raises(npusim.InputError) as caught:
        npusim.run(None, doc)
    assert caught.value.file == "workload dict 'briefly'"
    assert "{" not in str(caught.value) and len(str(caught.value)) < 200  # not the whole dict


def test_a_broadcast_input_of_the_wrong_shape_is_refused_before_it_is_written():
    huge = np.broadcast_to(np.int8(0), (65536, 65536))
    start = time.monotonic()
    with pytest.raises(npusim.InputError) as caught:
        npusim.run(None, TINY, functional=True, inputs={"input": huge})
    assert time.monotonic() - start < 20
    assert caught.value.place == "inputs['input']" and "[2, 12, 12, 8]" in caught.value.reason


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_chip_set_of_a_non_finite_number_names_the_pointer(value):
    chip = npusim.Chip.load()
    with pytest.raises(npusim.InputError) as caught:
        chip.set("/core/matrix/slaves", value)
    assert caught.value.place == "/core/matrix/slaves" and "JSON" in caught.value.reason
    assert "default.json: line" not in str(caught.value)


def test_a_chip_whose_origin_is_dot_dot_writes_inside_its_scratch(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    chip = npusim.Chip(npusim.Chip.load().config, origin="..")
    chip.set("/core/matrix/slaves", 8)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("which", ["chip", "workload"])
def test_a_file_name_too_long_is_an_input_error_not_an_os_error(which):
    # The explorer's campaign finding (a name past NAME_MAX) through the API's own path lookup.
    name = "y" * 5000 + ".json"
    with pytest.raises(npusim.InputError) as raised:
        npusim.run(name if which == "chip" else None, name if which == "workload" else TINY)
    assert "File name too long" in str(raised.value)
