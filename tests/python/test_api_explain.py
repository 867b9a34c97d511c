"""npusim.explain: the CLI's explanation, read into sections."""
import pytest

import npusim
from conftest import cli

LAYER = {"hi": 56, "wi": 56, "ci": 64, "co": 64, "kh": 3, "kw": 3, "pad": 1}
SPEC = "hi=56,wi=56,ci=64,co=64,kh=3,kw=3,pad=1"


def test_the_wfold_mapping_as_a_dict():
    _, text, _ = cli("explain", "--layer", SPEC)
    mapping = npusim.explain("configs/default.json", layer=LAYER)
    assert mapping["text"] == text and mapping["engine"] == "matrix"
    assert mapping["layer"] == {"n": 1, "hi": 56, "wi": 56, "ci": 64, "co": 64, "kh": 3, "kw": 3, "sh": 1,
                                "sw": 1, "pad": [1, 1, 1, 1], "element_bytes": 1, "ho": 56, "wo": 56}
    cycles_line = next(l for l in text.splitlines() if l.startswith("cycles"))
    assert mapping["sections"]["cycles"]["numbers"][0] == int(cycles_line.split()[1])
    loops = mapping["sections"]["loops"]
    assert (loops["Nco"], loops["Nkw"], loops["Nkh"], loops["Nci"]) == (4, 3, 3, 1)
    assert mapping["sections"]["layer"]["co"] == 64


def test_a_changed_chip_is_explained_as_changed():
    chip = npusim.Chip.load("configs/default.json").set("/core/matrix/slaves", 32)
    assert npusim.explain(chip, layer=LAYER)["sections"]["matrix"]["ns"] == 32


def test_an_engine_is_chosen_by_name():
    _, text, _ = cli("explain", "--config", "configs/gpu-shader.json", "--layer", "hi=5,wi=5,ci=3,co=2,k=3",
                     "--engine", "shader")
    mapping = npusim.explain("configs/gpu-shader.json", layer="hi=5,wi=5,ci=3,co=2,k=3", engine="shader")
    assert mapping["text"] == text and mapping["engine"] == "shader"
    assert mapping["sections"]["image"]["numbers"] == [75]


def test_without_an_engine_the_one_the_compiler_chooses_is_named():
    sparse = npusim.explain("configs/sparse.json", layer=LAYER, sparsity="ifm=0.5,weights=0.8")
    dense = npusim.explain("configs/sparse.json", layer=LAYER)
    assert (sparse["engine"], dense["engine"]) == ("sparse", "matrix")
    assert "sparse" in dense["notes"]  # the scheduling engine's verdict on the dense layer


def test_a_bad_layer_raises_the_clis_message():
    status, _, err = cli("explain", "--layer", "hi=56,wi=56,ci=64,co=0,k=3")
    with pytest.raises(npusim.InputError) as caught:
        npusim.explain(None, layer="hi=56,wi=56,ci=64,co=0,k=3")
    assert status == 2 and "error: " + str(caught.value) == err.strip()
