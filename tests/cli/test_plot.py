"""`belief plot`: the standard figures render to PNG and SVG with the content they promise."""
import json
import struct

import pytest
from matplotlib.container import BarContainer, ErrorbarContainer
from typer.testing import CliRunner

from belief.app.cli import app
from belief.app.plot.figures import draw, rounds_figure, save_figure, tom_accuracy_figure, transport_figure
from belief.app.results.schema import validate_bench_json
from belief.app.plot.data import BenchSummary, ResultsError, load_results
from belief.grading.report import LEVELS
from belief.grading.stats import wilson_ci95

runner = CliRunner()
TEMPLATES = ["contents", "changed", "just_defused", "sequence"]


def _bars(ax) -> list:
    return [c for c in ax.containers if isinstance(c, BarContainer)]


def _errorbars(ax) -> list:
    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)]


def _legend_labels(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]


def _png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def _write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _flat_run(directory, kind_correct: dict, rounds=(10, 12, 14)):
    """A flat-layout run: for each kind, one question per (order, template) with the given verdict."""
    directory.mkdir()
    team = list(kind_correct) * 3
    _write_jsonl(directory / "episodes.jsonl",
                 [{"episode": f"bomb_{s}", "seed": s, "agents": ",".join(team[:3]), "rounds": r}
                  for s, r in enumerate(rounds)])
    rows = []
    for kind, correct in kind_correct.items():
        for order in range(3):
            for template in TEMPLATES:
                rows.append({"episode": "bomb_0", "order": order, "level": LEVELS[order], "template": template,
                             "agent": "alpha", "kind": kind, "gold": True, "answer": "Yes", "correct": correct})
    _write_jsonl(directory / "questions.jsonl", rows)
    return directory


@pytest.fixture(scope="module")
def bomb_runs(tmp_path_factory):
    """Real runs of the current `belief run bomb` (whatever its file layout): a belief team and a mixed team, of
    4 rounds an episode (every question template and level comes up; the figures only read the files)."""
    base = tmp_path_factory.mktemp("runs")
    dirs = []
    for name, agents in (("belief", "belief"), ("mixed", "belief,random,belief")):
        out = base / name
        r = runner.invoke(app, ["run", "bomb", "--agents", agents, "--episodes", "2", "--seed", "0",
                                "--max-rounds", "4", "--no-progress", "--out", str(out)])
        assert r.exit_code == 0, r.output
        dirs.append(out)
    return dirs


def test_tom_figure_from_real_runs_is_table_2_as_grouped_bars(bomb_runs, tmp_path):
    runs = [load_results(d) for d in bomb_runs]
    assert [r.label for r in runs] == ["belief", "belief,random,belief"]
    kinds = {q["kind"] for r in runs for q in r.questions}
    assert kinds == {"belief", "random"}
    fig = tom_accuracy_figure(runs)
    assert len(fig.axes) == 4  # the three levels and the selected questions
    panels = list(LEVELS) + ["selected"]
    for ax, level in zip(fig.axes, panels):
        templates = {q["template"] for r in runs for q in r.questions if q["order"] == level}
        # one series per agent kind, then the best shortcut of each template (hatched)
        assert [c.get_label() for c in _bars(ax)] == ["belief", "random", "best shortcut"]
        assert all(len(c.patches) == len(templates) + 1 for c in _bars(ax))  # every template and "all"
        assert [t.get_text() for t in ax.get_xticklabels()][0] == "all"
        assert ax.get_xlabel() == "question template"
        heights = [p.get_height() for c in _bars(ax) for p in c.patches]
        assert all(0 <= h <= 100 for h in heights if h == h)
        best = _bars(ax)[-1]
        assert all(p.get_hatch() == ".." for p in best.patches)
    # the selected panel: its best shortcut is at most 60% (the selector balances every template)
    assert all(p.get_height() <= 60.0 + 1e-9 for p in _bars(fig.axes[3])[-1].patches[1:])
    assert fig.axes[0].get_ylabel() == "accuracy (%)"
    assert _legend_labels(fig) == ["belief", "random", "best shortcut"]  # once for the figure, not once per panel
    for suffix in ("png", "svg"):
        path = save_figure(fig, tmp_path / f"tom.{suffix}")
        assert path.stat().st_size > 5000
    width, height = _png_size(tmp_path / "tom.png")
    assert width > 900 and height > 400
    svg = (tmp_path / "tom.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "accuracy (%)" in svg and "2nd-order" in svg


def test_tom_bars_are_the_accuracies_of_the_rows(tmp_path):
    run = load_results(_flat_run(tmp_path / "run", {"belief": True, "random": False}))
    fig = draw([run])
    for ax in fig.axes:
        belief, random_, best = _bars(ax)
        assert [p.get_height() for p in belief.patches] == [100.0] * 5
        assert [p.get_height() for p in random_.patches] == [0.0] * 5
        assert [p.get_height() for p in best.patches] == [100.0] * 5  # every gold is yes: majority gets all


def test_the_per_episode_layout_is_graded_from_free_text(tmp_path):
    d = tmp_path / "old"
    d.mkdir()
    _write_jsonl(d / "summary.jsonl", [{"seed": 0, "agents": ["belief", "random", "belief"], "rounds": 9}])
    _write_jsonl(d / "bomb_0.questions.jsonl", [
        {"id": "q0", "level": "introspection", "template": "contents", "asked": "alpha", "answer": True},
        {"id": "q1", "level": "first_order", "template": "contents", "asked": "bravo", "answer": False},
        {"id": "q2", "level": "second_order", "template": "sequence", "asked": "charlie", "answer": True}])
    _write_jsonl(d / "bomb_0.answers.jsonl", [
        {"id": "q0", "answer": "Yes, I know what is in Room 3."},
        {"id": "q1", "answer": "No, Bravo does not know."},
        {"id": "q2", "answer": "Maybe."}])  # unparseable: wrong, as belief grade counts it
    run = load_results(d / "bomb_0.questions.jsonl")
    assert run.label == "belief,random,belief"
    assert [(q["order"], q["kind"], q["correct"]) for q in run.questions] == [
        ("introspection", "belief", True), ("first_order", "random", True), ("second_order", "belief", False)]


def _bench_json(world, metrics: dict, agents: dict, episodes: int) -> dict:
    """A benchmark JSON object of the one shape: ``agents`` = {agent: {metric: (mean, [lo, hi] or None, n)}}."""
    headline = next(iter(agents))
    by_agent = {a: {**{m: f[0] for m, f in figs.items()}, "ci95": {m: f[1] for m, f in figs.items()},
                    "n": {m: f[2] for m, f in figs.items()}, "episodes": episodes} for a, figs in agents.items()}
    diff_vs = {a: {m: {"mean": None if f[0] is None or agents[headline][m][0] is None else agents[headline][m][0] - f[0],
                       "ci95": None, "ordering": "no ordering", "n": min(f[2], agents[headline][m][2])}
                   for m, f in figs.items()} for a, figs in agents.items() if a != headline}
    out = {"world": world, "headline": headline, "episodes": episodes, "seed": 0,
           "metrics": {m: {"higher_is_better": hib, "unit": unit} for m, (hib, unit) in metrics.items()},
           "by_agent": by_agent, "diff_vs": diff_vs, "extra": {}}
    validate_bench_json(out)
    return out


TRANSPORT_METRICS = {"transport_rate": (True, "share"), "message_tokens": (False, "tokens"), "comm_frames": (False, "frames")}


def _transport_summary(tmp_path, name="transport.txt", with_ci=True):
    figures = {"cobel": (0.9, [0.85, 0.95], 114.7, 120), "always": (0.7, [0.6, 0.8], 6252.6, 900),
               "silent": (0.87, [0.8, 0.94], 0, 0)}
    agents = {a: {"transport_rate": (rate, ci if with_ci else None, 24), "message_tokens": (tokens, None, 24),
                  "comm_frames": (frames, None, 24)} for a, (rate, ci, tokens, frames) in figures.items()}
    path = tmp_path / name
    path.write_text("a table the command printed first\n" + json.dumps(_bench_json("transport_v0", TRANSPORT_METRICS,
                                                                                   agents, 24)) + "\n", encoding="utf-8")
    return path


def test_transport_figure_has_one_point_and_interval_per_agent(tmp_path):
    summary = load_results(_transport_summary(tmp_path))
    assert isinstance(summary, BenchSummary) and summary.kind == "transport"
    fig = transport_figure([summary])
    ax, = fig.axes
    bars = _errorbars(ax)
    assert [c.get_label() for c in bars] == ["cobel", "always", "silent"]
    assert all(c.has_yerr for c in bars)
    lo, hi = bars[0].lines[2][0].get_segments()[0][:, 1]  # cobel's vertical interval
    assert (lo, hi) == pytest.approx((0.85, 0.95))
    assert _legend_labels(fig) == ["cobel", "always", "silent"]
    assert ax.get_xlabel().startswith("message tokens") and ax.get_ylabel().startswith("transport rate")
    assert ax.get_xscale() == "symlog"
    assert {t.get_text() for t in ax.texts} >= {"cobel 0.90 (n=24)", "always 0.70 (n=24)", "silent 0.87 (n=24)"}
    save_figure(fig, tmp_path / "t.png")
    assert _png_size(tmp_path / "t.png")[0] > 500


def test_transport_figure_without_intervals_says_so(tmp_path):
    fig = draw([load_results(_transport_summary(tmp_path, with_ci=False))])
    ax, = fig.axes
    assert not any(c.has_yerr for c in _errorbars(ax))
    assert any("no interval" in t.get_text() for t in ax.texts)


def test_rounds_figure_for_bomb_teams_has_intervals_over_episodes(tmp_path):
    runs = [load_results(_flat_run(tmp_path / "a", {"belief": True}, rounds=(10, 12, 14))),
            load_results(_flat_run(tmp_path / "b", {"random": False}, rounds=(30, 30, 27)))]
    fig = draw(runs, "rounds")
    ax, = fig.axes
    bars = _bars(ax)
    assert [c.get_label() for c in bars] == ["belief", "random"] == _legend_labels(fig)
    assert [c.patches[0].get_height() for c in bars] == [12.0, 29.0]
    errs = _errorbars(ax)
    assert len(errs) == 2
    lo, hi = errs[0].lines[2][0].get_segments()[0][:, 1]
    assert lo == pytest.approx(12 - 4.303 * 2 / 3 ** 0.5, abs=1e-3) and hi == pytest.approx(12 + 4.303 * 2 / 3 ** 0.5,
                                                                                          abs=1e-3)
    assert ax.get_ylabel().startswith("rounds per episode") and ax.get_xlabel() == "team"
    assert [t.get_text() for t in ax.texts] == ["12.0", "n=3", "29.0", "n=3"]  # the values inside, n above


HOUSEHOLD_METRICS = {"steps": (False, "steps"), "message_tokens": (False, "tokens")}


def test_rounds_figure_for_household_steps(tmp_path):
    path = tmp_path / "household.json"
    path.write_text(json.dumps(_bench_json("household_v0", HOUSEHOLD_METRICS, {
        "cobel": {"steps": (80.5, [75.0, 86.0], 50), "message_tokens": (40, None, 50)},
        "single": {"steps": (120.0, [110.0, 130.0], 50), "message_tokens": (0, None, 50)}}, 50)), encoding="utf-8")
    summary = load_results(path)
    assert summary.kind == "household" and summary.headline == "cobel"
    fig = rounds_figure([summary])
    ax, = fig.axes
    assert [c.get_label() for c in _bars(ax)] == ["cobel", "single"] == _legend_labels(fig)
    assert len(_errorbars(ax)) == 2
    assert ax.get_ylabel().startswith("steps per episode")
    assert [t.get_text() for t in ax.texts if t.get_text().startswith("n=")] == ["n=50", "n=50"]
    save_figure(fig, tmp_path / "h.svg")
    assert "steps per episode" in (tmp_path / "h.svg").read_text(encoding="utf-8")


def _no_data_patches(ax) -> list:
    return [p for p in ax.patches if p.get_gid() == "no-data"]


def test_a_missing_bar_is_drawn_as_no_data_not_as_zero(tmp_path):
    """An agent whose metric was never measured (n=0) gets a hatched "no data" placeholder; a real 0 is a bar of 0."""
    metrics = {"prediction_accuracy": (True, "share")}
    summary = _bench_json("household_v0", metrics, {"cobel": {"prediction_accuracy": (0.4, [0.2, 0.6], 5)},
                                                    "silent": {"prediction_accuracy": (0.0, [0.0, 0.0], 5)},
                                                    "single": {"prediction_accuracy": (None, None, 0)}}, 5)
    path = tmp_path / "household.json"
    path.write_text(json.dumps(summary), encoding="utf-8")
    fig = draw([load_results(path)])
    ax, = fig.axes
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("no data") == 1 and texts.count("n=5") == 2
    placeholder, = _no_data_patches(ax)
    assert placeholder.get_hatch() == "///" and not placeholder.get_fill() and placeholder.get_height() > 0
    assert placeholder.get_x() < 2 < placeholder.get_x() + placeholder.get_width()  # where single's bar would be
    silent = _bars(ax)[1].patches[0]
    assert silent.get_height() == 0.0 and not _no_data_patches(ax)[1:]
    save_figure(fig, tmp_path / "missing.png")
    assert _png_size(tmp_path / "missing.png")[0] > 500


def test_tom_bars_carry_n_and_wilson_intervals_and_missing_cells_say_no_data(tmp_path):
    run = load_results(_flat_run(tmp_path / "run", {"belief": True, "random": False}))
    run.questions[:] = [q for q in run.questions if not (q["kind"] == "random" and q["template"] == "sequence")]
    fig = tom_accuracy_figure([run])
    for ax in fig.axes:
        texts = [t.get_text() for t in ax.texts]
        assert texts.count("no data") == 1  # random has no sequence question at this order
        assert texts.count("n=1") == 2 * 4 - 1 and texts.count("n=4") == 1 and texts.count("n=3") == 1
        belief_err, random_err = _errorbars(ax)
        lo, hi = belief_err.lines[2][0].get_segments()[0][:, 1]
        assert (lo, hi) == pytest.approx((100 * wilson_ci95(4, 4)[0], 100.0))  # "all": 4 of 4 right
    png = tmp_path / "tom.png"
    save_figure(fig, png)
    assert _png_size(png)[0] > 900


def _plot(*args):
    return runner.invoke(app, ["plot", *map(str, args)])


def _one_error(result, code: int = 1) -> str:
    assert result.exit_code == code, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def test_cli_writes_png_and_svg_and_refuses_to_overwrite(bomb_runs, tmp_path):
    png = tmp_path / "tom.png"
    r = _plot(*bomb_runs, "--out", png)
    assert r.exit_code == 0, r.output
    assert _png_size(png)[0] > 900
    before = png.read_bytes()
    assert "exists" in _one_error(_plot(bomb_runs[0], "--out", png))
    assert png.read_bytes() == before
    r = _plot(bomb_runs[0], "--out", png, "--force")
    assert r.exit_code == 0 and png.read_bytes() != before
    r = _plot(*bomb_runs, "--figure", "rounds", "--out", tmp_path / "rounds.svg")
    assert r.exit_code == 0, r.output
    assert "rounds per episode" in (tmp_path / "rounds.svg").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rounds.svg", "tom.png"]  # no temporary files left


@pytest.mark.parametrize("case", ["suffix", "missing", "mixed", "figure", "wrong-figure", "no-json", "input"])
def test_cli_bad_input_is_one_error_line_and_writes_nothing(case, tmp_path):
    run = _flat_run(tmp_path / "run", {"belief": True})
    transport = _transport_summary(tmp_path)
    bad = tmp_path / "notes.txt"
    bad.write_text("no figures here\n", encoding="utf-8")
    out = tmp_path / "fig.png"
    args = {"suffix": [run, "--out", tmp_path / "fig.jpeg2"],
            "missing": [tmp_path / "nope", "--out", out],
            "mixed": [run, transport, "--out", out],
            "figure": [run, "--figure", "pie", "--out", out],
            "wrong-figure": [transport, "--figure", "tom", "--out", out],
            "no-json": [bad, "--out", out],
            "input": [bad, "--out", bad.with_suffix(".png"), "--force"]}[case]  # refused even with --force
    bad.with_suffix(".png").write_bytes(b"an input, not a figure")
    if case == "input":
        args[0] = bad.with_suffix(".png")
    before = sorted(p.name for p in tmp_path.iterdir())
    message = _one_error(_plot(*args), 2 if case in ("suffix", "figure") else 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written, nothing left behind
    assert {"suffix": "unsupported file type", "missing": "no such file", "mixed": "mix", "figure": "--figure",
            "wrong-figure": "no ToM table", "no-json": "no JSON object", "input": "input of this command"}[case] in message


def test_results_errors_name_the_file(tmp_path):
    path = tmp_path / "run"
    path.mkdir()
    (path / "episodes.jsonl").write_text('{"rounds": 3}\n{oops\n', encoding="utf-8")
    with pytest.raises(ResultsError, match=r"episodes.jsonl:2: invalid JSON"):
        load_results(path)


def test_best_shortcut_is_the_best_of_the_rows_shortcuts_and_majority():
    from belief.app.plot.figures import best_shortcut

    rows = [{"gold": g, "shortcuts": {"as_self": a, "reality": "yes"}}
            for g, a in (("yes", "yes"), ("no", "no"), ("no", "no"), ("no", "yes"))]
    # majority (no) 3 of 4, as_self 3 of 4, reality 1 of 4: the tie goes to the first name
    assert best_shortcut(rows) == ("as_self", 75.0)
    assert best_shortcut([{"gold": None}]) is None


def _tom_table(types: dict, agents=("belief",), limit=0.65) -> dict:
    """A ToM table of :func:`belief.grading.trivial.tom_table`'s shape: ``types`` = {type: (agent acc, best)}."""
    by_type = {}
    for t, (acc, best) in types.items():
        by_type[t] = {**{a: {"accuracy": acc, "ci95": [max(acc - 0.1, 0), min(acc + 0.1, 1)], "n": 40} for a in agents},
                      "majority": {"accuracy": best, "ci95": [best - 0.1, best + 0.1], "n": 40},
                      "n": 40, "gold": {"no": 0.5, "yes": 0.5}, "best_shortcut": "majority", "trivial_best": best,
                      "tom": best <= limit, "inverted": [], "margin": None}
    return {"by_type": by_type, "overall": {}, "answerers": sorted({*agents, "majority"}), "trivial_limit": limit,
            "trivial": ["majority"], "headline": agents[0]}


@pytest.mark.parametrize("nesting", ["top", "by_kind", "named"])
def test_tom_figure_from_any_bench_draws_each_table_with_its_best_shortcut(nesting, tmp_path):
    tables = {"belief": _tom_table({"aware/first": (0.9, 0.55), "knows/x": (0.8, 0.9)}),
              "random": _tom_table({"aware/first": (0.5, 0.6)}, agents=("random",))}
    tom = {"top": tables["belief"], "by_kind": tables, "named": {"tom": tables["belief"]}}[nesting]
    summary = _bench_json("guandan_v0", {"win_rate": (True, "rate")},
                          {"belief": {"win_rate": (0.5, [0.4, 0.6], 20)}}, 20)
    summary["extra"] = {"tom": tom}
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(summary), encoding="utf-8")
    loaded = load_results(path)
    fig = draw([loaded], "tom")
    axes = [ax for ax in fig.axes if ax.get_visible()]
    expected = [tables["belief"], tables["random"]] if nesting == "by_kind" else [tables["belief"]]
    assert len(axes) == len(expected)
    for ax, table in zip(axes, expected):
        agent = table["headline"]
        bars = _bars(ax)
        assert [c.get_label() for c in bars] == [agent, "best shortcut"]
        types = list(table["by_type"])
        assert [p.get_height() for p in bars[0].patches] == pytest.approx([100 * table["by_type"][t][agent]["accuracy"]
                                                                           for t in types])
        assert [p.get_height() for p in bars[1].patches] == pytest.approx([100 * table["by_type"][t]["trivial_best"]
                                                                           for t in types])
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        assert [x.endswith(" *") for x in ticks] == [table["by_type"][t]["tom"] for t in types]
        tom_n = sum(e["tom"] for e in table["by_type"].values())
        assert f"({tom_n} of {len(types)} templates count as ToM)" in ax.get_title()
    save_figure(fig, tmp_path / "tom.png")
    assert _png_size(tmp_path / "tom.png")[0] > 500


def test_tom_figure_from_a_real_bench(tmp_path):
    path = tmp_path / "blocks.json"
    r = runner.invoke(app, ["bench", "blocks", "--episodes", "2", "--seed", "0", "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    path.write_text(r.stdout, encoding="utf-8")
    loaded = load_results(path)
    assert loaded.tom, "the blocks bench carries ToM tables in extra.tom"
    r = _plot(path, "--figure", "tom", "--out", tmp_path / "tom.png")
    assert r.exit_code == 0, r.output
    fig = draw([loaded], "tom")
    for ax, table in zip(fig.axes, loaded.tom.values()):
        best = _bars(ax)[-1]
        assert [p.get_height() for p in best.patches] == pytest.approx(
            [100 * e["trivial_best"] for e in table["by_type"].values()])


def test_tom_figure_without_tables_or_with_bad_rows_is_one_error(tmp_path):
    summary = _bench_json("household_v0", HOUSEHOLD_METRICS, {"cobel": {"steps": (30.0, [28.0, 32.0], 10),
                                                                       "message_tokens": (50.0, None, 10)}}, 10)
    path = tmp_path / "none.json"
    path.write_text(json.dumps(summary), encoding="utf-8")
    assert "no ToM table" in _one_error(_plot(path, "--figure", "tom", "--out", tmp_path / "a.png"))
    summary["extra"] = {"tom": {"cobel": {"by_type": {"knows/x": {"cobel": {"accuracy": "high"}, "trivial_best": 0.5}},
                                          "answerers": ["cobel"]}}}
    path.write_text(json.dumps(summary), encoding="utf-8")
    assert "knows/x.cobel" in _one_error(_plot(path, "--figure", "tom", "--out", tmp_path / "b.png"))
    assert not (tmp_path / "a.png").exists() and not (tmp_path / "b.png").exists()
