"""npusim.Chip: loading, JSON-pointer overrides, and the CLI's messages for bad values."""
import json

import pytest

import npusim
from npusim.pointer import get_at, set_at
from conftest import CHECKOUT, cli


def test_load_is_the_config_validate_resolves():
    status, out, _ = cli("validate", "configs/smp-2x2.json")
    assert status == 0
    assert npusim.Chip.load("configs/smp-2x2.json").config == json.loads(out)


def test_set_one_pointer_and_a_dict_of_them():
    chip = npusim.Chip.load("configs/default.json")
    assert chip.set("/core/matrix/slaves", 32) is chip
    assert chip.get("/core/matrix/slaves") == 32
    chip.set({"/core/matrix/cus_per_slave": 8, "/chip/dram/channels": 2})
    assert (chip.get("/core/matrix/cus_per_slave"), chip.get("/chip/dram/channels")) == (8, 2)


def test_a_copy_is_independent():
    chip = npusim.Chip.load("configs/default.json")
    other = chip.copy().set("/core/matrix/slaves", 8)
    assert chip.get("/core/matrix/slaves") == 16 and other.get("/core/matrix/slaves") == 8


def cli_error_of(tmp_path, overrides):
    """The CLI's message for the default chip with these overrides, written by hand."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"extends": str(CHECKOUT / "configs/default.json"), **overrides}))
    status, _, err = cli("validate", path)
    assert status == 2
    return npusim.InputError.from_cli_line(err.strip())


def test_a_bad_value_raises_the_clis_message_and_leaves_the_chip(tmp_path):
    chip = npusim.Chip.load("configs/default.json")
    with pytest.raises(npusim.InputError) as caught:
        chip.set("/core/matrix/slaves", -3)
    expected = cli_error_of(tmp_path, {"core": {"matrix": {"slaves": -3}}})
    assert (caught.value.place, caught.value.reason) == (expected.place, expected.reason)
    assert caught.value.file == "configs/default.json"
    assert str(caught.value) == f"configs/default.json: {expected.place}: {expected.reason}"
    assert chip.get("/core/matrix/slaves") == 16


def test_an_unknown_key_is_refused_as_the_cli_refuses_it(tmp_path):
    chip = npusim.Chip.load("configs/default.json")
    with pytest.raises(npusim.InputError) as caught:
        chip.set("/core/matrix/slavez", 4)
    expected = cli_error_of(tmp_path, {"core": {"matrix": {"slavez": 4}}})
    assert (caught.value.place, caught.value.reason) == (expected.place, expected.reason)


def test_loading_a_missing_file_gives_the_clis_line():
    status, _, err = cli("validate", "configs/no-such-chip.json")
    with pytest.raises(npusim.InputError) as caught:
        npusim.Chip.load("configs/no-such-chip.json")
    assert status == 2 and "error: " + str(caught.value) == err.strip()


def test_pointers_escape_and_step_through_lists():
    doc = {"a/b": {"~": 1}, "layers": [{"s": 0}, {"s": 0}]}
    set_at(doc, "/a~1b/~0", 2)
    set_at(doc, "/layers/*/s", 0.5)
    set_at(doc, "/new/key", "x")  # missing objects are created, as the sweep's nlohmann[] does
    assert doc == {"a/b": {"~": 2}, "layers": [{"s": 0.5}, {"s": 0.5}], "new": {"key": "x"}}
    assert get_at(doc, "/layers/1/s") == 0.5
