"""The standard figures, drawn with matplotlib's object API on the Agg canvas (no pyplot, no global backend).

* ``tom``: ToM accuracy per order (one panel each) and question template, one bar series per agent kind:
  the study's Table 2 as a grouped bar chart (bomb runs);
* ``transport``: transport rate against message tokens per agent, with the 95% interval of the rate
  (``belief bench transport --json``);
* ``rounds``: mean rounds per episode per team (bomb runs, 95% t interval over episodes) or mean steps per
  agent (``belief bench household --json``, its ``ci95``).

Each function returns a :class:`matplotlib.figure.Figure`; :func:`save_figure` writes PNG, SVG or PDF.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import ScaledTranslation

from belief.app.plot.data import BenchSummary, BombRunRows, ResultsError, template_order
from belief.grading.report import LEVEL_TITLES, LEVELS
from belief.files.outputs import atomic_write_bytes, check_outputs
from belief.grading.stats import mean_ci95

FIGURES = ("tom", "transport", "rounds")
FORMATS = (".png", ".svg", ".pdf")
_COLOURS = {"belief": "tab:green", "cobel": "tab:green", "planner": "tab:blue", "rule": "tab:blue",
            "random": "tab:gray", "silent": "tab:cyan", "always": "tab:red", "coela": "tab:red",
            "llm": "tab:orange", "single": "tab:purple"}
_CYCLE = ("tab:olive", "tab:brown", "tab:pink", "tab:orange", "tab:purple", "tab:cyan", "tab:blue", "tab:red")


def _colours(names) -> dict:
    spare = iter(c for c in _CYCLE * 4 if c not in {_COLOURS.get(n) for n in names})
    return {n: _COLOURS.get(n) or next(spare) for n in names}


def _new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _accuracy(rows: list[dict]) -> float:
    return 100.0 * sum(r["correct"] for r in rows) / len(rows) if rows else math.nan


def tom_accuracy_figure(runs: list[BombRunRows]) -> Figure:
    """Grouped bars: one panel per order, x = question template (and all templates), one series per agent kind."""
    rows = [q for run in runs for q in run.questions]
    if not rows:
        raise ResultsError("no ToM questions in " + ", ".join(str(r.path) for r in runs))
    kinds = list(dict.fromkeys(q["kind"] for q in rows))
    groups = ["all"] + template_order({q["template"] for q in rows})
    colours = _colours(kinds)
    width = 0.8 / len(kinds)
    fig = _new_figure(min(16.0, 1.0 + len(LEVELS) * (0.8 + 0.28 * len(groups) * len(kinds))), 4.4)
    axes = fig.subplots(1, len(LEVELS), sharey=True)
    for ax, order in zip(axes, LEVELS):
        at_order = [q for q in rows if q["order"] == order]
        for i, kind in enumerate(kinds):
            mine = [q for q in at_order if q["kind"] == kind]
            heights = [_accuracy([q for q in mine if g == "all" or q["template"] == g]) for g in groups]
            xs = [g + (i - (len(kinds) - 1) / 2) * width for g in range(len(groups))]
            ax.bar(xs, heights, width * 0.92, color=colours[kind], label=kind)
        ax.set_title(f"{LEVEL_TITLES[order]} ({len(at_order)} questions)", fontsize=10)
        ax.set_xticks(range(len(groups)), [g.replace("_", " ") for g in groups], rotation=25, ha="right")
        ax.set_xlabel("question template")
        ax.set_ylim(0, 118)  # headroom for the legend, inside the axes and above the bars
        ax.set_yticks(range(0, 101, 20))
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel("accuracy (%)")
    axes[0].legend(loc="upper center", ncols=min(len(kinds), 4), fontsize=8, framealpha=0.85)
    fig.suptitle("bomb_v0 ToM accuracy against the exact checker (answers from each agent's own beliefs)",
                 fontsize=11)
    return fig


def _interval(value: dict, key: str) -> tuple[float, float] | None:
    ci = value.get("ci95")
    if isinstance(ci, dict):  # {metric: [lo, hi]}
        ci = ci.get(key)
    if isinstance(ci, (list, tuple)) and len(ci) == 2 and all(isinstance(x, (int, float)) for x in ci):
        return float(ci[0]), float(ci[1])
    return None


def _series(summaries: list[BenchSummary]) -> list[tuple[str, dict]]:
    """(label, figures) per agent over all files; an agent seen in two files is labelled with the file name."""
    names = [n for s in summaries for n in s.by_agent]
    return [(n if names.count(n) == 1 else f"{n} ({s.path.stem})", v) for s in summaries for n, v in s.by_agent.items()]


def _dodge(points: list[tuple[float, float]]) -> list[tuple[float, float, float]]:
    """(sideways offset, label y, label offset) per point: agents at the same token count are drawn side by side
    (offsets in points, display space only, so the data stay exact), their labels stacked right of the group."""
    out = [(0.0, y, 0.0) for _, y in points]
    groups: dict = {}
    for i, (x, _) in enumerate(points):
        groups.setdefault(round(x, 6), []).append(i)
    for members in groups.values():
        members.sort(key=lambda i: -points[i][1])
        label_y = math.inf
        for rank, i in enumerate(members):
            label_y = min(points[i][1], label_y - 0.05)
            out[i] = ((rank - (len(members) - 1) / 2) * 9.0, label_y, (len(members) - 1) / 2 * 9.0)
    return out


def transport_figure(summaries: list[BenchSummary]) -> Figure:
    """Transport rate (mean, 95% interval) against mean message tokens per episode, one point per agent."""
    series = _series(summaries)
    colours = _colours([label for label, _ in series])
    fig = _new_figure(6.6, 4.6)
    ax = fig.add_subplot()
    points = [(float(v.get("message_tokens") or 0.0), float(v["transport_rate"])) for _, v in series]
    missing = []
    for (label, v), (x, y), (dx, label_y, label_dx) in zip(series, points, _dodge(points)):
        ci = _interval(v, "transport_rate")
        if ci is None:
            missing.append(label)
        yerr = None if ci is None else [[max(y - ci[0], 0.0)], [max(ci[1] - y, 0.0)]]
        drawn = ax.errorbar([x], [y], yerr=yerr, fmt="o", markersize=7, capsize=4, color=colours[label], label=label)
        shift = ScaledTranslation(dx / 72, 0, fig.dpi_scale_trans)
        for artist in drawn.get_children():
            artist.set_transform(artist.get_transform() + shift)
        ax.annotate(f"{label} {y:.2f}", (x, label_y), textcoords="offset points", xytext=(label_dx + 9, 0),
                    va="center", fontsize=8)
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlim(-1.5, max(x for x, _ in points) * 4 + 100)
    intervals = [ci for _, v in series for ci in [_interval(v, "transport_rate")] if ci]
    ax.set_ylim(min([0.0] + [lo - 0.03 for lo, _ in intervals]), max([1.05] + [hi + 0.03 for _, hi in intervals]))
    ax.set_xlabel("message tokens per episode (mean, symlog scale)")
    ax.set_ylabel("transport rate (mean, 95% interval)")
    episodes = _episode_counts([s.episodes for s in summaries])
    ax.set_title(f"transport_v0: transport rate vs communication ({episodes})", fontsize=10)
    if missing:
        ax.text(0.99, 0.02, "no interval in the input for " + ", ".join(missing), transform=ax.transAxes,
                ha="right", va="bottom", fontsize=7, color="dimgray")
    ax.grid(True, alpha=0.3)
    ax.legend(title="agent", loc="lower left", fontsize=8, title_fontsize=8, framealpha=0.85)
    return fig


def _episode_counts(counts: list) -> str:
    if len(set(counts)) == 1:
        return f"{counts[0]} episodes" + (" each" if len(counts) > 1 else "")
    return ", ".join(map(str, counts)) + " episodes"


def _rounds_bars(results) -> tuple[list, str, str]:
    """(label, mean, (lo, hi) or None) per condition, the y label and the title."""
    if all(isinstance(r, BombRunRows) for r in results):
        bars = []
        for run in results:
            mean, ci = mean_ci95([e["rounds"] for e in run.episodes])
            bars.append((run.label, mean, ci if len(run.episodes) > 1 else None))
        n = _episode_counts([len(r.episodes) for r in results])
        return bars, "rounds per episode (mean, 95% interval)", f"bomb_v0: rounds per team ({n})"
    if all(isinstance(r, BenchSummary) and r.kind == "household" for r in results):
        bars = [(label, float(v["steps"]), _interval(v, "steps")) for label, v in _series(results)]
        n = _episode_counts([r.episodes for r in results])
        return bars, "steps per episode (mean, 95% interval)", f"household_v0: steps per agent ({n})"
    raise ResultsError("the rounds figure takes bomb run directories or household benchmark output, not a mix "
                       "and not transport output")


def rounds_figure(results) -> Figure:
    """One bar per condition: mean rounds (bomb) or steps (household) with its 95% interval."""
    bars, ylabel, title = _rounds_bars(results)
    colours = _colours([label for label, _, _ in bars])
    fig = _new_figure(max(5.0, 1.6 + 1.1 * len(bars)), 4.4)
    ax = fig.add_subplot()
    for i, (label, mean, ci) in enumerate(bars):
        yerr = None if ci is None else [[max(mean - ci[0], 0.0)], [max(ci[1] - mean, 0.0)]]
        ax.bar([i], [mean], 0.7, yerr=yerr, capsize=6, color=colours[label], label=label)
        # the value inside the bar, beside the interval line that runs up its middle
        ax.text(i + 0.2, mean / 2, f"{mean:.1f}", ha="center", va="center", fontsize=9, color="white",
                fontweight="bold")
    top = max(ci[1] if ci else mean for _, mean, ci in bars)
    ax.set_ylim(0, top * 1.3 if top > 0 else 1)  # headroom: the legend sits inside the axes, above the bars
    ax.set_xticks(range(len(bars)), [label for label, _, _ in bars], rotation=15, ha="right")
    ax.set_xlabel("team" if isinstance(results[0], BombRunRows) else "agent")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8, framealpha=0.85)
    return fig


def default_figure(results) -> str:
    kinds = {"bomb" if isinstance(r, BombRunRows) else r.kind for r in results}
    if len(kinds) != 1:
        raise ResultsError(f"RESULTS mix {' and '.join(sorted(kinds))} results; plot them separately")
    return {"bomb": "tom", "transport": "transport", "household": "rounds"}[kinds.pop()]


def draw(results: list, figure: str | None = None) -> Figure:
    """The figure `figure` (default: the standard one for what `results` holds)."""
    figure = figure or default_figure(results)
    if figure == "tom":
        if not all(isinstance(r, BombRunRows) for r in results):
            raise ResultsError("the tom figure takes bomb run directories (belief run bomb --out DIR)")
        return tom_accuracy_figure(results)
    if figure == "transport":
        if not all(isinstance(r, BenchSummary) and r.kind == "transport" for r in results):
            raise ResultsError("the transport figure takes `belief bench transport --json` output")
        return transport_figure(results)
    if figure == "rounds":
        return rounds_figure(results)
    raise ResultsError(f"unknown figure {figure!r}; expected one of {', '.join(FIGURES)}")


class UnsupportedFormatError(ResultsError):
    """An output name whose suffix is not a format the figures are written in."""


def check_output_path(path, force: bool = False, inputs=()) -> Path:
    """Before any drawing: a supported suffix; not an input; not an existing file unless `force`."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise UnsupportedFormatError(f"{path}: unsupported file type {path.suffix or '(none)'!r}; use "
                                     f"{', '.join(FORMATS)}")
    check_outputs({"--out": path}, inputs=inputs, force=force)
    return path


def figure_bytes(fig: Figure, fmt: str) -> bytes:
    """The figure as PNG, SVG (text kept as text, no date, stable ids) or PDF (no date)."""
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "belief"}):
        fig.savefig(buf, format=fmt, metadata={"Date": None} if fmt in ("svg", "pdf") else None)
    return buf.getvalue()


def save_figure(fig: Figure, path, force: bool = False, inputs=()) -> Path:
    """Write `fig` atomically, in the format its suffix names."""
    path = check_output_path(path, force, inputs)
    atomic_write_bytes(path, figure_bytes(fig, path.suffix.lower().lstrip(".")))
    return path


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG (for notebooks: ``IPython.display.Image(png_bytes(fig))``)."""
    return figure_bytes(fig, "png")


__all__ = ["FIGURES", "FORMATS", "UnsupportedFormatError", "check_output_path", "default_figure", "draw",
           "figure_bytes", "png_bytes", "rounds_figure", "save_figure", "tom_accuracy_figure", "transport_figure"]
