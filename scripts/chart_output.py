"""What the chart scripts (plot_sweep.py, plot_energy.py) share: the output file's rules, and
the chart code itself, which lives in the Python package (python/npusim/charts.py) so the API
draws the same charts."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))

from npusim import charts  # noqa: E402  (after the path to the checkout's package)


def check_output(path, program):
    """Refuses an output the scripts cannot write: the format follows the extension."""
    if not path.endswith((".png", ".svg")):
        sys.exit(f"{program}: the output must end in .png or .svg")


def save(fig, path):
    """Writes the figure (charts.save: a fixed date keeps SVG output byte-identical)."""
    charts.save(fig, path)
    print(f"wrote {path}")
