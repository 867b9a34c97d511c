"""The Pareto chart: every trial of an exploration against its first two objectives.

Grey dots are feasible trials, red crosses trials that broke a constraint, the line and the
dark dots the front. With one objective it shows the objective by trial and the best so far.
"""
# A Figure of its own, not pyplot's: a notebook shows the returned figure once, a script
# needs no display, and nothing stays registered with pyplot after a chart is written.
from matplotlib.figure import Figure


def _label(objective):
    unit = f" [{objective.metric.unit}]" if objective.metric.unit else ""
    return f"{objective.name}{unit} ({'lower' if objective.direction == 'minimize' else 'higher'} is better)"


def draw_front(ax, trials, pareto, objectives, label="front"):
    """Draws trials and front on ax (shared with scripts/plot_explore_vs_grid.py)."""
    x, y = objectives[0].name, objectives[1].name
    complete = trials[trials["state"] == "complete"]
    feasible = complete[complete["feasible"].astype(bool)]
    infeasible = complete[~complete["feasible"].astype(bool)]
    ax.scatter(feasible[x], feasible[y], s=12, color="0.7", label=f"feasible trials ({len(feasible)})")
    if len(infeasible):
        ax.scatter(infeasible[x], infeasible[y], s=14, marker="x", color="tab:red", alpha=0.6,
                   label=f"constraint broken ({len(infeasible)})")
    front = pareto.sort_values(x)
    ax.step(front[x], front[y], where="post", color="tab:blue", linewidth=1.2)
    ax.scatter(front[x], front[y], s=22, color="tab:blue", zorder=3, label=f"{label} ({len(front)})")
    ax.set_xlabel(_label(objectives[0]))
    ax.set_ylabel(_label(objectives[1]))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")


def _draw_single(ax, trials, objective):
    done = trials[trials["feasible"].astype(bool)]
    ax.scatter(done["trial"], done[objective.name], s=12, color="0.6", label="feasible trials")
    best = done[objective.name].cummin() if objective.direction == "minimize" else done[objective.name].cummax()
    ax.step(done["trial"], best, where="post", color="tab:blue", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel(_label(objective))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")


def pareto_chart(trials, pareto, objectives, title="", path=None):
    """The figure; written to path (PNG, SVG, ... by its extension) when given."""
    fig = Figure(figsize=(7, 4.8))
    ax = fig.subplots()
    if len(objectives) >= 2:
        draw_front(ax, trials, pareto, objectives)
        if len(objectives) > 2:
            title += f" (front over {len(objectives)} objectives, first two shown)"
    else:
        _draw_single(ax, trials, objectives[0])
    ax.set_title(title, fontsize="medium")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=120)
    return fig
