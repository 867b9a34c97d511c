"""docs/python-api.md: every ```python block runs, in order, as one session would run them."""
import re

from conftest import CHECKOUT


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.S)


def test_every_example_of_the_api_page_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the examples write their charts and sweeps here
    blocks = python_blocks(CHECKOUT / "docs" / "python-api.md")
    assert len(blocks) >= 6
    session = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/python-api.md, python block {i + 1}", "exec"), session)
    assert (tmp_path / "sweeps" / "api-example" / "results.csv").is_file()
    assert (tmp_path / "front.png").is_file() and (tmp_path / "resnet50-roofline.png").is_file()
