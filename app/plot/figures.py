"""The standard figures, drawn with matplotlib's object API on the Agg canvas (no pyplot, no global backend).

* ``tom``: ToM accuracy per order (one panel each, and one for the selected questions) and question template,
  one bar series per agent kind and the best shortcut of each template beside them (hatched, named): the study's
  Table 2 as a grouped bar chart (bomb runs), each agent's bar with its Wilson 95% interval over questions;
  from any world benchmark's JSON (``extra.tom``), one panel per table, the same bars, templates that count as
  ToM starred;
* ``transport``: transport rate against message tokens per agent, with the 95% interval of the rate
  (``belief bench transport --json``);
* ``rounds``: mean rounds per episode per team (bomb runs, 95% t interval over episodes), or the first metric of
  any other world benchmark per agent (``belief bench household --json``: steps), with its ``ci95``.

Every bar and point says how many items it stands on (``n=``) and carries its 95% interval when one is known; a
bar with no data is drawn as a hatched placeholder labelled "no data", never as an empty gap that reads as 0.
Each function returns a :class:`matplotlib.figure.Figure`; :func:`save_figure` writes PNG, SVG or PDF.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.transforms import ScaledTranslation

from belief.app.plot.data import SELECTED, BenchSummary, BombRunRows, ResultsError, template_order
from belief.grading.report import LEVEL_TITLES, LEVELS
from belief.files.outputs import atomic_write_bytes, check_outputs
from belief.grading.stats import mean_ci95, wilson_ci95

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


NO_DATA = "no data"


def _no_data(ax, x: float, width: float, top: float, fontsize: float = 7) -> None:
    """A hatched, unfilled placeholder from 0 to `top` labelled "no data": a missing bar, not a bar of 0."""
    ax.add_patch(Rectangle((x - width / 2, 0), width, top, fill=False, hatch="///", edgecolor="0.6",
                           linewidth=0.6, gid="no-data"))
    ax.text(x, top / 2, NO_DATA, rotation=90, ha="center", va="center", fontsize=fontsize, color="0.35")


def _n_label(ax, x: float, y: float, n: int, fontsize: float = 7, rotation: float = 0) -> None:
    ax.annotate(f"n={n}", (x, y), textcoords="offset points", xytext=(0, 2), ha="center", va="bottom",
                fontsize=fontsize, rotation=rotation, color="0.25")


def _accuracy(rows: list[dict]) -> tuple[float, tuple[float, float] | None]:
    """Accuracy (%) of the rows and its Wilson 95% interval; NaN and None without rows."""
    if not rows:
        return math.nan, None
    right = sum(r["correct"] for r in rows)
    lo, hi = wilson_ci95(right, len(rows))
    return 100.0 * right / len(rows), (100.0 * lo, 100.0 * hi)


def best_shortcut(rows: list[dict]) -> tuple[str, float] | None:
    """The best shortcut on ``rows`` (questions, whoever answered them) and its accuracy (%): every shortcut
    the rows carry (:mod:`belief.grading.shortcuts`) and ``majority`` (the rows' commonest gold); None without
    a gold answer."""
    golds = [r.get("gold") for r in rows]
    if not rows or any(g is None for g in golds):
        return None
    common = min(Counter(golds).items(), key=lambda kv: (-kv[1], kv[0]))[0]
    scores = {"majority": sum(g == common for g in golds) / len(rows)}
    for name in sorted({s for r in rows for s in r.get("shortcuts", {})}):
        scores[name] = sum(r.get("shortcuts", {}).get(name) == r["gold"] for r in rows) / len(rows)
    name = max(sorted(scores), key=lambda n: scores[n])
    return name, 100.0 * scores[name]


BEST = "best shortcut"


def tom_accuracy_figure(runs: list[BombRunRows]) -> Figure:
    """Grouped bars: one panel per order (and one for the selected questions, when the runs have them), x =
    question template (and all templates), one series per agent kind and the best shortcut of each cell (hatched,
    named above it: :func:`best_shortcut`); each agent's bar with its Wilson 95% interval and its number of
    questions; no questions: a "no data" placeholder."""
    rows = [q for run in runs for q in run.questions]
    if not rows:
        raise ResultsError("no ToM questions in " + ", ".join(str(r.path) for r in runs))
    kinds = list(dict.fromkeys(q["kind"] for q in rows))
    panels = list(LEVELS) + ([SELECTED] if any(q["order"] == SELECTED for q in rows) else [])
    groups_of = {p: ["all"] + template_order({q["template"] for q in rows if q["order"] == p}) for p in panels}
    series = len(kinds) + 1
    colours = _colours(kinds)
    width = 0.8 / series
    widest = max(len(g) for g in groups_of.values())
    fig = _new_figure(min(18.0, 1.0 + len(panels) * (0.8 + 0.3 * widest * series)), 4.8)
    axes = fig.subplots(1, len(panels), sharey=True)
    for ax, order in zip(axes, panels):
        groups = groups_of[order]
        at_order = [q for q in rows if q["order"] == order]
        for i, kind in enumerate(kinds):
            mine = [q for q in at_order if q["kind"] == kind]
            cells = [[q for q in mine if g == "all" or q["template"] == g] for g in groups]
            figures = [_accuracy(c) for c in cells]
            xs = [g + (i - (series - 1) / 2) * width for g in range(len(groups))]
            heights = [h for h, _ in figures]
            yerr = [[max(h - ci[0], 0.0) if ci else 0.0 for h, ci in figures],
                    [max(ci[1] - h, 0.0) if ci else 0.0 for h, ci in figures]]
            ax.bar(xs, heights, width * 0.92, color=colours[kind], label=kind, yerr=yerr, capsize=1.5,
                   error_kw={"elinewidth": 0.7, "ecolor": "0.2"})
            for x, cell, (h, ci) in zip(xs, cells, figures):
                if cell:
                    _n_label(ax, x, ci[1], len(cell), fontsize=5.5, rotation=90)
                else:
                    _no_data(ax, x, width * 0.92, 100.0, fontsize=5.5)
        best = [best_shortcut([q for q in at_order if g == "all" or q["template"] == g]) for g in groups]
        xs = [g + (series - 1 - (series - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [b[1] if b else math.nan for b in best], width * 0.92, color="0.85", edgecolor="0.35",
               hatch="..", label=BEST)
        for x, b in zip(xs, best):
            if b:
                ax.annotate(b[0].replace("_", " "), (x, b[1]), textcoords="offset points", xytext=(0, 2),
                            ha="center", va="bottom", fontsize=5, rotation=90, color="0.3")
        title = "Selected" if order == SELECTED else LEVEL_TITLES[order]
        ax.set_title(f"{title} ({len(at_order)} questions)", fontsize=10)
        ax.set_xticks(range(len(groups)), [g.replace("_", " ") for g in groups], rotation=25, ha="right")
        ax.set_xlabel("question template")
        ax.set_ylim(0, 138)  # headroom for the n labels and the legend, inside the axes and above the bars
        ax.set_yticks(range(0, 101, 20))
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel("accuracy (%)")
    axes[0].legend(loc="upper center", ncols=min(series, 4), fontsize=8, framealpha=0.85)
    fig.suptitle("bomb_v0 ToM accuracy against the exact checker, beside the best shortcut of each template "
                 "(answers from each agent's own beliefs; Wilson 95% intervals, n = questions)", fontsize=10)
    return fig


def tom_table_figure(summaries: list[BenchSummary]) -> Figure:
    """Any world's ToM tables (a bench's ``extra.tom``): one panel per table (agent kind or team), x = question
    template, one bar series per agent that answered (accuracy with its 95% interval, n) and the best shortcut of
    each template (hatched, named); a template that counts as ToM (best shortcut at most the table's limit) is
    starred, and the limit is drawn as a dashed line."""
    panels = [(f"{s.kind}{' ' + label if label else ''}" if len(summaries) > 1 else (label or s.kind), t)
              for s in summaries for label, t in s.tom.items() if t.get("by_type")]
    if not panels:
        raise ResultsError("no ToM table (extra.tom) in " + ", ".join(str(s.path) for s in summaries)
                           + ": run the bench with its questions on")
    trivial = {a for _, t in panels for a in t.get("trivial", ())} | {"majority"}
    agents = list(dict.fromkeys(a for _, t in panels for a in t.get("answerers", ()) if a not in trivial))
    colours = _colours(agents)
    cols = min(len(panels), 2)
    rows_n = math.ceil(len(panels) / cols)
    most = max(len(t["by_type"]) * (1 + sum(a in t.get("answerers", ()) for a in agents)) for _, t in panels)
    fig = _new_figure(max(6.0, min(18.0, 1.5 + cols * (1.0 + 0.35 * most))), 1.2 + 4.2 * rows_n)
    axes = fig.subplots(rows_n, cols, sharey=True, squeeze=False).ravel()
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    handles: dict = {}
    for ax, (label, table) in zip(axes, panels):
        mine = [a for a in agents if a in table.get("answerers", ())]  # this table's answerers, no shortcut
        series = len(mine) + 1
        width = 0.8 / series
        types = list(table["by_type"])
        entries = [table["by_type"][t] for t in types]
        for i, agent in enumerate(mine):
            xs = [g + (i - (series - 1) / 2) * width for g in range(len(types))]
            cells = [e.get(agent) for e in entries]
            heights = [100.0 * c["accuracy"] if c else math.nan for c in cells]
            cis = [c.get("ci95") if c else None for c in cells]
            yerr = [[max(h - 100.0 * ci[0], 0.0) if ci else 0.0 for h, ci in zip(heights, cis)],
                    [max(100.0 * ci[1] - h, 0.0) if ci else 0.0 for h, ci in zip(heights, cis)]]
            handles[agent] = ax.bar(xs, heights, width * 0.92, color=colours[agent], label=agent, yerr=yerr,
                                    capsize=1.5, error_kw={"elinewidth": 0.7, "ecolor": "0.2"})
            for x, c, h, ci in zip(xs, cells, heights, cis):
                if c:
                    _n_label(ax, x, 100.0 * ci[1] if ci else h, int(c.get("n", 0)), fontsize=5.5, rotation=90)
                else:  # this answerer was not asked questions of the template
                    _no_data(ax, x, width * 0.92, 100.0, fontsize=5.5)
        xs = [g + (series - 1 - (series - 1) / 2) * width for g in range(len(types))]
        best = [100.0 * e["trivial_best"] for e in entries]
        handles[BEST] = ax.bar(xs, best, width * 0.92, color="0.85", edgecolor="0.35", hatch="..", label=BEST)
        for x, e, h in zip(xs, entries, best):
            ax.annotate(str(e.get("best_shortcut", "")).replace("_", " "), (x, h), textcoords="offset points",
                        xytext=(0, 2), ha="center", va="bottom", fontsize=5, rotation=90, color="0.3")
        limit = 100.0 * float(table.get("trivial_limit", 0.65))
        ax.axhline(limit, color="0.4", linestyle="--", linewidth=0.7)
        tom_n = sum(bool(e.get("tom")) for e in entries)
        ax.set_title(f"{label} ({tom_n} of {len(types)} templates count as ToM)", fontsize=10)
        ax.set_xticks(range(len(types)), [t.replace("_", " ") + (" *" if e.get("tom") else "")
                                          for t, e in zip(types, entries)], rotation=25, ha="right")
        ax.set_xlabel("question template (* counts as ToM)")
        ax.set_ylim(0, 138)
        ax.set_yticks(range(0, 101, 20))
        ax.grid(True, axis="y", alpha=0.3)
    for ax in axes[::cols]:
        ax.set_ylabel("accuracy (%)")
    names = [a for a in agents if a in handles] + [BEST]
    axes[0].legend([handles[n] for n in names], names, loc="upper center", ncols=min(len(names), 4), fontsize=8,
                   framealpha=0.85)
    worlds = ", ".join(dict.fromkeys(f"{s.kind}_v0" for s in summaries))
    fig.suptitle(f"{worlds} ToM accuracy against the exact checker, beside the best shortcut of each template "
                 f"(dashed: the limit a shortcut must stay under for the template to count as ToM)", fontsize=10)
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


def _n(value: dict, key: str):
    n = value.get("n")
    return n.get(key) if isinstance(n, dict) else None


def transport_figure(summaries: list[BenchSummary]) -> Figure:
    """Transport rate (mean, 95% interval) against mean message tokens per episode, one point per agent,
    labelled with its episode count; an agent without a transport rate is listed as "no data"."""
    everyone = _series(summaries)
    series = [(label, v) for label, v in everyone if v.get("transport_rate") is not None]
    missing_rate = [label for label, v in everyone if v.get("transport_rate") is None]
    if not series:
        raise ResultsError("no agent has a transport rate in " + ", ".join(str(s.path) for s in summaries))
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
        n = _n(v, "transport_rate")
        ax.annotate(f"{label} {y:.2f}" + ("" if n is None else f" (n={n})"), (x, label_y), textcoords="offset points",
                    xytext=(label_dx + 9, 0), va="center", fontsize=8)
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlim(-1.5, max(x for x, _ in points) * 4 + 100)
    intervals = [ci for _, v in series for ci in [_interval(v, "transport_rate")] if ci]
    ax.set_ylim(min([0.0] + [lo - 0.03 for lo, _ in intervals]), max([1.05] + [hi + 0.03 for _, hi in intervals]))
    ax.set_xlabel("message tokens per episode (mean, symlog scale)")
    ax.set_ylabel("transport rate (mean, 95% interval)")
    episodes = _episode_counts([s.episodes for s in summaries])
    ax.set_title(f"transport_v0: transport rate vs communication ({episodes}; n = episodes per point)", fontsize=10)
    notes = ([f"{NO_DATA} for " + ", ".join(missing_rate)] if missing_rate else []) + \
            (["no interval in the input for " + ", ".join(missing)] if missing else [])
    if notes:
        ax.text(0.99, 0.02, "; ".join(notes), transform=ax.transAxes, ha="right", va="bottom", fontsize=7,
                color="dimgray")
    ax.grid(True, alpha=0.3)
    ax.legend(title="agent", loc="lower left", fontsize=8, title_fontsize=8, framealpha=0.85)
    return fig


def _episode_counts(counts: list) -> str:
    if len(set(counts)) == 1:
        return f"{counts[0]} episodes" + (" each" if len(counts) > 1 else "")
    return ", ".join(map(str, counts)) + " episodes"


def _headline_metric(summary: BenchSummary) -> str:
    """The metric the bars of a benchmark show: household's steps, else the world's first metric."""
    if "steps" in summary.metrics:
        return "steps"
    if not summary.metrics:
        raise ResultsError(f"{summary.path}: the benchmark lists no metrics")
    return next(iter(summary.metrics))


def _rounds_bars(results) -> tuple[list, str, str]:
    """(label, mean or None, (lo, hi) or None, n) per condition, the y label and the title."""
    if all(isinstance(r, BombRunRows) for r in results):
        bars = []
        for run in results:
            if not run.episodes:
                bars.append((run.label, None, None, 0))
                continue
            mean, ci = mean_ci95([e["rounds"] for e in run.episodes])
            bars.append((run.label, mean, ci if len(run.episodes) > 1 else None, len(run.episodes)))
        n = _episode_counts([len(r.episodes) for r in results])
        return bars, "rounds per episode (mean, 95% interval)", f"bomb_v0: rounds per team ({n})"
    if all(isinstance(r, BenchSummary) and r.kind != "transport" for r in results):
        metrics = {_headline_metric(r) for r in results}
        worlds = {r.kind for r in results}
        if len(metrics) != 1 or len(worlds) != 1:
            raise ResultsError("the rounds figure takes benchmark output of one world at a time")
        metric, world = metrics.pop(), worlds.pop()
        bars = [(label, v[metric], _interval(v, metric), _n(v, metric)) for label, v in _series(results)]
        n = _episode_counts([r.episodes for r in results])
        return (bars, f"{metric.replace('_', ' ')} per episode (mean, 95% interval)",
                f"{world}_v0: {metric.replace('_', ' ')} per agent ({n})")
    raise ResultsError("the rounds figure takes bomb run directories or benchmark output (not transport), not a mix")


def rounds_figure(results) -> Figure:
    """One bar per condition: mean rounds (bomb) or the benchmark's metric (household: steps) with its 95%
    interval and its episode count; a condition without data is a hatched "no data" placeholder."""
    bars, ylabel, title = _rounds_bars(results)
    colours = _colours([label for label, *_ in bars])
    fig = _new_figure(max(6.2, 1.6 + 1.1 * len(bars)), 4.4)
    ax = fig.add_subplot()
    present = [(mean, ci) for _, mean, ci, _ in bars if mean is not None]
    top = max([ci[1] if ci else mean for mean, ci in present] or [1.0])
    top = top if top > 0 else 1.0
    bottom = min([0.0] + [ci[0] if ci else mean for mean, ci in present])
    for i, (label, mean, ci, n) in enumerate(bars):
        if mean is None:
            ax.bar([i], [math.nan], 0.7, color=colours[label], label=label)  # keeps the legend entry
            _no_data(ax, i, 0.7, top * 1.05, fontsize=9)
            continue
        yerr = None if ci is None else [[max(mean - ci[0], 0.0)], [max(ci[1] - mean, 0.0)]]
        ax.bar([i], [mean], 0.7, yerr=yerr, capsize=6, color=colours[label], label=label)
        # the value inside the bar, beside the interval line that runs up its middle; n above the interval
        ax.text(i + 0.2, mean / 2, f"{mean:.1f}" if abs(mean) >= 10 else f"{mean:.2f}", ha="center", va="center",
                fontsize=9, color="white", fontweight="bold")
        if n is not None:
            _n_label(ax, i, ci[1] if ci else mean, n, fontsize=8)
    ax.set_ylim(bottom * 1.1, top * 1.35)  # headroom: the n labels and the legend sit inside the axes
    ax.set_xticks(range(len(bars)), [label for label, *_ in bars], rotation=15, ha="right")
    ax.set_xlabel("team" if isinstance(results[0], BombRunRows) else "agent")
    ax.set_ylabel(ylabel)
    ax.set_title(title + "; n = episodes", fontsize=9)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8, framealpha=0.85)
    return fig


def default_figure(results) -> str:
    kinds = {"bomb" if isinstance(r, BombRunRows) else r.kind for r in results}
    if len(kinds) != 1:
        raise ResultsError(f"RESULTS mix {' and '.join(sorted(kinds))} results; plot them separately")
    return {"bomb": "tom", "transport": "transport"}.get(kinds.pop(), "rounds")


def draw(results: list, figure: str | None = None) -> Figure:
    """The figure `figure` (default: the standard one for what `results` holds)."""
    figure = figure or default_figure(results)
    if figure == "tom":
        if all(isinstance(r, BenchSummary) for r in results):
            return tom_table_figure(results)
        if not all(isinstance(r, BombRunRows) for r in results):
            raise ResultsError("the tom figure takes bomb run directories (belief run bomb --out DIR) or world "
                               "benchmark JSON (belief bench WORLD --json), not both at once")
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
