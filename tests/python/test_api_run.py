"""npusim.run: the Run's figures and tables against the CLI's own run folder."""
import csv
import json
import pathlib
import tempfile

import numpy as np
import pytest

import npusim
from conftest import cli

TINY = "traces/workloads/tiny.json"


def cli_run(out, *args):
    status, _, err = cli("run", "--quiet", "--out", out, *args)
    assert status == 0, err
    return json.loads((pathlib.Path(out) / "report.json").read_text())


def test_a_timing_run_reads_back_the_clis_report(tmp_path):
    report = cli_run(tmp_path / "cli", "--workload", TINY)
    run = npusim.run("configs/default.json", TINY)
    assert run.report["total_cycles"] == report["total_cycles"] == run.cycles
    assert (run.time_us, run.energy, run.area) == (report["time_us"], report["energy"]["total_pj"],
                                                   report["area"]["total_mm2"])
    assert list(run.layers["name"]) == [row["name"] for row in report["workload"]["rows"]]
    assert list(run.layers["cycles"]) == [row["cycles"] for row in report["workload"]["rows"]]
    energy = {l["name"]: l["total_pj"] for l in report["energy"]["layers"]}
    assert list(run.layers["energy_pj"]) == [energy[n] for n in run.layers["name"]]
    assert run.engines.to_dict("records") == report["engines"]
    assert run.memories.to_dict("records") == report["memories"] + report["dram_channels"]
    with open(tmp_path / "cli" / "instructions.csv", newline="") as f:
        assert len(run.instructions) == sum(1 for _ in csv.DictReader(f))
    assert run.tensors == {}


def test_functional_tensors_equal_the_clis_npy_files(tmp_path):
    cli_run(tmp_path / "cli", "--workload", TINY, "--functional")
    run = npusim.run(None, TINY, functional=True)
    files = sorted((tmp_path / "cli" / "tensors").glob("*.npy"))
    assert sorted(run.tensors) == [f.stem for f in files] and "fc5" in run.tensors
    for f in files:
        expected = np.load(f)
        assert run.tensors[f.stem].dtype == expected.dtype
        np.testing.assert_array_equal(run.tensors[f.stem], expected)


def test_an_input_array_in_memory_is_the_input_file_the_cli_reads(tmp_path):
    image = np.random.default_rng(3).integers(-128, 128, size=(2, 12, 12, 8), dtype=np.int8)
    np.save(tmp_path / "image.npy", image)
    workload = json.loads(pathlib.Path(TINY).read_text())
    workload["input"]["file"] = str(tmp_path / "image.npy")
    (tmp_path / "tiny.json").write_text(json.dumps(workload))
    cli_run(tmp_path / "cli", "--workload", tmp_path / "tiny.json", "--functional")
    run = npusim.run(None, TINY, functional=True, inputs={"input": image})
    np.testing.assert_array_equal(run.tensors["input"], image)
    np.testing.assert_array_equal(run.tensors["fc5"], np.load(tmp_path / "cli/tensors/fc5.npy"))


def test_a_trace_takes_its_inputs_as_arrays():
    x = np.random.default_rng(5).integers(-128, 128, size=(1, 8, 8, 16), dtype=np.int8)
    run = npusim.run(None, "traces/examples/relu.jsonl", functional=True, inputs={"x": x})
    np.testing.assert_array_equal(run.tensors["y"], np.maximum(x, 0))  # relu, by numpy


def test_a_workload_dict_runs_as_its_file_would():
    workload = json.loads(pathlib.Path(TINY).read_text())
    assert npusim.run(None, workload).cycles == npusim.run(None, TINY).cycles


def test_out_none_keeps_nothing_and_out_keeps_the_run_folder(tmp_path, monkeypatch):
    # A temporary folder of this test's own: ctest runs other API tests at the same time,
    # whose npusim-* folders come and go in the shared one.
    private = tmp_path / "tmp"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    monkeypatch.setenv("TMPDIR", str(private))
    run = npusim.run(None, TINY)
    assert run.directory is None and not any(private.iterdir())
    written = run.timeline(tmp_path / "t.json")
    assert "traceEvents" in json.loads(written.read_text())
    with pytest.raises(ValueError):
        run.timeline()
    kept = npusim.run(None, TINY, out=tmp_path / "kept")
    assert kept.timeline() == tmp_path / "kept" / "timeline.json" and kept.timeline().is_file()


def test_split_and_dependency_mode_reach_the_cli():
    run = npusim.run("configs/smp-2x2.json", TINY, split="model-co", dependency_mode="full")
    assert run.report["scheduling"]["dependencies"]["mode_override"] == "full"
    conv_modes = {row["split"]["mode"] for row in run.report["workload"]["rows"] if row["kind"] == "conv"}
    assert "model-co" in conv_modes


def test_a_bad_workload_raises_the_clis_message(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"layers": [{"type": "conv", "co": 0, "k": 3}], "input": {"h": 4, "w": 4, "c": 4}}')
    status, _, err = cli("run", "--quiet", "--out", tmp_path / "r", "--workload", bad)
    with pytest.raises(npusim.InputError) as caught:
        npusim.run(None, bad)
    assert status == 2 and "error: " + str(caught.value) == err.strip()
    assert not (tmp_path / "r").exists()


def test_charts_of_a_run(tmp_path):
    run = npusim.run(None, TINY)
    run.plot_layers(tmp_path / "layers.png")
    fig = run.plot_roofline(tmp_path / "roofline.png")
    assert (tmp_path / "layers.png").stat().st_size > 0 and (tmp_path / "roofline.png").stat().st_size > 0
    dots = sum(len(c.get_offsets()) for c in fig.axes[0].collections)
    assert dots == sum(1 for r in run.report["workload"]["rows"] if r["macs"] and r["dram_bytes"])


def test_a_wrong_array_is_refused_naming_the_workload_and_the_argument(tmp_path):
    floats = np.zeros((2, 12, 12, 8), np.float32)
    np.save(tmp_path / "floats.npy", floats)
    workload = json.loads(pathlib.Path(TINY).read_text())
    workload["input"]["file"] = str(tmp_path / "floats.npy")
    (tmp_path / "tiny.json").write_text(json.dumps(workload))
    status, _, err = cli("run", "--quiet", "--functional", "--out", tmp_path / "r", "--workload", tmp_path / "tiny.json")
    expected = npusim.InputError.from_cli_line(err.strip())
    with pytest.raises(npusim.InputError) as caught:
        npusim.run(None, TINY, functional=True, inputs={"input": floats})
    assert status == 2 and caught.value.file == TINY and caught.value.place == expected.place
    assert caught.value.reason == expected.reason.replace(str(tmp_path / "floats.npy"), "inputs['input']")


def test_a_run_folder_without_instruction_rows_reads_as_an_empty_table(tmp_path):
    from npusim.running import Run, INSTRUCTION_COLUMNS
    report = cli_run(tmp_path / "cli", "--workload", TINY, "--rows", "layers")
    assert not (tmp_path / "cli" / "instructions.csv").exists()
    run = Run(tmp_path / "cli", keep=True)
    assert run.cycles == report["total_cycles"]
    assert list(run.instructions.columns) == INSTRUCTION_COLUMNS and len(run.instructions) == 0
    assert len(run.layers) == len(report["workload"]["rows"])
