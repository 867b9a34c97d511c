"""What the chart scripts (plot_sweep.py, plot_energy.py) share: the output file's rules."""
import sys


def check_output(path, program):
    """Refuses an output the scripts cannot write: the format follows the extension."""
    if not path.endswith((".png", ".svg")):
        sys.exit(f"{program}: the output must end in .png or .svg")


def save(fig, path):
    """Writes the figure; a fixed date keeps SVG output byte-identical from run to run."""
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else {})
    print(f"wrote {path}")
