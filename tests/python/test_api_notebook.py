"""docs/notebooks/design-space.ipynb runs from top to bottom in a fresh kernel (nbclient),
so the notebook never rots. Its explore cells use npusim.exploration."""
import nbclient
import nbformat

from conftest import CHECKOUT


def test_the_design_space_notebook_executes(tmp_path, monkeypatch):
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's inline charts, as in Jupyter
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's debugger notes on stderr
    notebook = nbformat.read(CHECKOUT / "docs" / "notebooks" / "design-space.ipynb", as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on any failure
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert sum(1 for o in outputs if "image/png" in o.get("data", {})) >= 3  # roofline, sweep, front
