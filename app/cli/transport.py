"""Transport commands: ``belief bench transport`` and ``belief run transport``.

``bench transport`` plays ``--episodes N`` generated ``transport_v0`` worlds from ``--seed`` (default 24 from
seed 0: the study's scale), or with ``--fixed`` the 24 smaller fixed episodes (``--episodes-subset``: some of
them), with each agent type, shows a progress bar with ETA on stderr, prints a
table (means with 95% intervals, paired differences against cobel) or, with ``--json``, only one JSON object
(the benchmark shape of docs/benchmarks.md); ``--out DIR`` writes ``episodes.jsonl`` (without wall-clock
times: identical runs give identical files), ``timings.jsonl`` and ``summary.json``; ``--plot FILE`` saves transport rate against message tokens per agent type. ``--llm`` (both commands) turns on LLM mode for ``cobel`` agents
(:mod:`belief.agents.transport.llm`): ``--llm-parts update,predict,message``, endpoint options as for the
other LLM commands; LLM usage and fallbacks are reported (table, and ``extra.llm`` in the JSON line).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli import llm_options, run_options
from belief.app.cli.app import bench_app, run_app
from belief.app.runs.progress import progress_bar
from belief.errors import BeliefError
from belief.files.outputs import write_table

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


_fail = run_options.fail
#: the default --agents of bench transport (belief.app.runners.transport.DEFAULT_AGENTS; a test keeps them equal)
DEFAULT_AGENTS = "cobel,coela,messenger,independent,silent,rhp,rhp_alone,cobel_nobbc,cobel_nopartner"
#: the generated worlds of a default bench transport (belief.app.bench.transport.DEFAULT_WORLDS; a test keeps
#: them equal)
DEFAULT_WORLDS = 24


def _table(summary: dict) -> Table:
    head = summary["headline"]
    t = Table(title=f"transport_v0, {summary['episodes']} {summary['extra'].get('worlds', 'fixed')} world(s); "
                    "means, 95% intervals")
    for col in ("agent", "transport rate", "95% CI", f"{head} - agent (95% CI)", "message tokens", "comm frames",
                "prediction acc.", "keeps doing", "belief acc. (world)", "belief acc. (partner)", "miscoordination"):
        t.add_column(col, justify="right" if col != "agent" else "left")

    def pct(x):
        return "n/a" if x is None else f"{100 * x:.1f}%"

    def interval(ci):
        return "n/a" if ci is None else f"{pct(ci[0])}-{pct(ci[1])}"

    def num(x, digits):
        return "n/a" if x is None else f"{x:.{digits}f}"

    for k, v in summary["by_agent"].items():
        d = summary["diff_vs"].get(k, {}).get("transport_rate")
        diff = ""
        if d is not None and d["ci95"] is not None:
            diff = f"{100 * d['mean']:+.1f} ({100 * d['ci95'][0]:+.1f}, {100 * d['ci95'][1]:+.1f}) {d['ordering']}"
        t.add_row(k, pct(v["transport_rate"]), interval(v["ci95"]["transport_rate"]), diff,
                  num(v["message_tokens"], 0), num(v["comm_frames"], 1), pct(v["prediction_accuracy"]),
                  pct(v.get("persistence_accuracy")), pct(v["belief_accuracy_world"]), pct(v["belief_accuracy_partner"]), num(v["miscoordination"], 1))
    return t


def _check_plot_path(path: Path) -> None:
    """Exit 2 before any episode runs when --plot names a format `belief plot` cannot write."""
    from belief.app.plot import figures as plot_figures

    if path.suffix.lower() not in plot_figures.FORMATS:
        _fail(f"--plot: unsupported file type {path.suffix or '(none)'!r}; use one of {', '.join(plot_figures.FORMATS)}")


def _save_plot(summary: dict, path: Path) -> None:
    """The same figure as `belief plot` draws from the saved JSON line, written atomically."""
    from belief.app.plot import figures as plot_figures
    from belief.app.plot.data import bench_summary

    figures = {k: v for k, v in summary.items() if k != "results"}  # the JSON line's object
    plot_figures.save_figure(plot_figures.transport_figure([bench_summary(figures, path)]), path, force=True)


LLM_PARTS_HELP = "LLM mode parts, comma-separated: update, predict, message (default: all three)"


def _llm_mode(llm: bool, kinds, endpoint: dict, parts):
    """The TransportLLM for --llm (None without); exits 2 on misuse, 1 with one error line on LLM failure."""
    if not llm:
        given = [f"--{k.replace('_', '-')}" for k, v in {**endpoint, "llm_parts": parts}.items() if v is not None]
        if given:
            _fail(f"{', '.join(given)} {'only applies' if len(given) == 1 else 'only apply'} with --llm")
        return None
    if "cobel" not in kinds:
        _fail("--llm applies to cobel agents: include cobel in --agents")
    from belief.agents.transport.llm import make_llm, parse_parts

    try:
        return make_llm(**endpoint, parts=parse_parts(parts or "update,predict,message"))
    except BeliefError as e:
        _fail(" ".join(str(e).split()), 1)


def _llm_table(rep: dict) -> Table:
    t = Table(title=f"LLM mode (cobel): {rep['requests']} requests, {rep['total_tokens']} tokens "
                    f"({rep['prompt_tokens']} prompt + {rep['completion_tokens']} completion), "
                    f"{rep['failed_requests']} failed, {rep['cache_hits']} cache hits")
    for col in ("part", "calls", "LLM answers used", "fallbacks", "rejected attempts"):
        t.add_column(col, justify="right" if col != "part" else "left")
    for p in rep["parts"]:
        v = rep[p]
        t.add_row(p, str(v["calls"]), str(v["llm"]), str(v["fallbacks"]), str(v["rejected_attempts"]))
    return t


#: --out DIR of bench transport: the deterministic files, and the wall-clock planner time apart
TRANSPORT_FILES = run_options.AGGREGATE_FILES + ("timings.jsonl",)
#: the per-episode figures that are wall-clock times (they differ between identical runs): not in episodes.jsonl
TIMING_KEYS = {"planner": ("seconds",)}


def split_timings(results: list) -> tuple[list, list]:
    """``(rows, timings)``: the episode rows without their wall-clock times (identical runs give identical
    rows) and, per row, ``{"world", "agent", "planner_seconds"}``."""
    rows, timings = [], []
    for r in results:
        row, timing = dict(r), {"world": r.get("world"), "agent": r.get("agent")}
        for key, names in TIMING_KEYS.items():
            if isinstance(row.get(key), dict):
                row[key] = {k: v for k, v in row[key].items() if k not in names}
                timing.update({f"{key}_{k}": r[key][k] for k in names if k in r[key]})
        rows.append(row)
        timings.append(timing)
    return rows, timings


def _write_timings(path: Path, timings: list) -> None:
    from belief.files.outputs import write_jsonl

    try:
        write_jsonl(path, timings)
    except OSError as e:
        _fail(f"cannot write into --out {path.parent}: {e}", 1)


_HIDDEN_RESULTS = typer.Option(None, "--results", hidden=True)  # before --out: one table file (.json/.jsonl/.csv)
_HIDDEN_TRACE = typer.Option(None, "--trace", hidden=True)  # before --out: the trace file of one episode
_KINDS = dict(choices="belief.agents.transport.baselines:AGENT_TYPES", known="belief.agents.transport.baselines:is_known")
_PLANNER = typer.Option(None, "--planner", help="pyperplan (default) | fast-downward | greedy")
_LLM_PARTS = typer.Option(None, "--llm-parts", help=LLM_PARTS_HELP)


def _serial_for_llm(ctx, pool: dict) -> None:
    """LLM mode plays in this process (one client, one usage account): --executor serial, its default."""
    if pool["executor"] != "serial" and run_options.given(ctx, "executor"):
        _fail("--llm plays in this process (one client): use --executor serial (its default)")
    pool["executor"] = "serial"


def _check_planner(planner: Optional[str]) -> None:
    from belief.agents.transport.planner import ENGINES

    if planner is not None and planner not in ENGINES:
        _fail(f"--planner must be one of {', '.join(ENGINES)}")


@bench_app.command("transport")
@llm_options.endpoint_options
@run_options.deprecated_aliases(episodes="--worlds")
def bench_transport(
    ctx: typer.Context,
    fixed: bool = typer.Option(False, "--fixed", help="play the 24 fixed episodes (2 agents, 10 targets: smaller "
                               "than the study's houses) instead of generated worlds"),
    episodes_subset: Optional[str] = typer.Option(None, "--episodes-subset", help="some of the fixed episodes, "
                                                  "by index or name: '0-5,12', 'food', 'stuff-high', 'food-low-3' "
                                                  "(implies --fixed)"),
    agents: str = run_options.agents(DEFAULT_AGENTS, counts=None, help="comma-separated "
                                     "agent types (see belief.agents.transport.baselines)", **_KINDS),
    episodes: Optional[int] = typer.Option(None, "--episodes", min=2, help="play N generated worlds, at the "
                                           f"study's scale (seeds S..S+N-1; default {DEFAULT_WORLDS})"),
    seed: int = typer.Option(0, "--seed", min=0, help="first seed of the generated worlds"),
    as_json: bool = typer.Option(False, "--json", help="print only the JSON line on stdout (no tables)"),
    progress: bool = run_options.PROGRESS,
    plot: Optional[Path] = typer.Option(None, "--plot", help="save transport rate vs message tokens (PNG/SVG/PDF)"),
    planner: Optional[str] = _PLANNER,
    executor: run_options.Executor = run_options.EXECUTOR,
    workers: int = run_options.WORKERS,
    address: Optional[str] = run_options.ADDRESS,
    out_dir: Optional[Path] = run_options.out(),
    results: Optional[Path] = _HIDDEN_RESULTS,
    force: bool = run_options.FORCE,
    llm: bool = typer.Option(False, "--llm", help="LLM mode for cobel agents (one process; see --llm-parts)"),
    endpoint: dict = None,
    llm_parts: Optional[str] = _LLM_PARTS,
    tom: bool = typer.Option(True, "--tom/--no-tom", help="ask the selected ToM questions (extra.tom); "
                             "--no-tom plays about four times faster"),
):
    """CoBel vs baselines on transport_v0: a table of mean figures, or one JSON line with --json.

    By default 24 generated worlds from seed 0, at the study's scale; --fixed plays the 24 smaller fixed
    episodes instead."""
    from belief.envs.transport.world import parse_subset
    from belief.app.bench.transport import bench, to_json_line

    fixed_flag = "--fixed" if fixed else "--episodes-subset" if episodes_subset is not None else None
    if fixed_flag is not None:
        for flag, given in (("--episodes", episodes is not None), ("--seed", run_options.given(ctx, "seed"))):
            if given:
                _fail(f"{fixed_flag} plays the fixed episodes; {flag} is for generated worlds: give one or the "
                      "other")
    if episodes_subset is not None and not episodes_subset.strip():
        _fail("--episodes-subset is empty: give episode indices or names ('0-5,12', 'food', ...), or use --fixed "
              "for all 24")
    try:
        eps = parse_subset(episodes_subset) if fixed_flag is not None else None
    except ValueError as e:
        _fail(str(e))
    kinds = run_options.split_kinds(agents)
    _check_planner(planner)
    if plot is not None:
        _check_plot_path(plot)
    run_options.refuse_bad_outputs({"--plot": plot, "--results": results}, (), force)
    files = run_options.out_paths(out_dir, TRANSPORT_FILES, force)
    mode = _llm_mode(llm, kinds, endpoint, llm_parts)
    worlds = None if eps is not None else episodes if episodes is not None else DEFAULT_WORLDS
    total = (worlds if eps is None else len(eps)) * len(kinds)
    with progress_bar("transport episodes", total=total, enabled=progress) as bar:
        try:
            summary = bench(eps, kinds, planner=planner, workers=workers,
                            progress=lambda r: bar.advance(description=f"{r['agent']} {r['name']}"), llm=mode,
                            worlds=worlds, seed=seed, executor=executor, address=address, tom=tom)
        except BeliefError as e:  # LLM mode: an endpoint that never answered; the executor: Ray missing
            _fail(" ".join(str(e).split()), 1)
    if not as_json:
        out.print(_table(summary))
    if mode is not None and not as_json:
        out.print(_llm_table(summary["extra"]["llm"]))
    rows, timings = split_timings(summary["results"])
    for path, write in ((plot, lambda p: _save_plot(summary, p)),
                        (results, lambda p: write_table(p, rows))):
        if path is None:
            continue
        try:
            write(path)
        except (OSError, ValueError) as e:
            _fail(f"cannot write {path}: {e}", 1)
    line = to_json_line(summary)
    run_options.write_aggregate(files, rows, json.loads(line))
    if files:
        _write_timings(files["timings.jsonl"], timings)
    if plot is not None and not as_json:
        out.print(f"plot: {plot}")
    if as_json:
        print(line)


def transport_episode(task, llm=None) -> dict:
    """One episode of ``run transport`` (a picklable task: world, agent type, planner, trace path, max steps,
    whether to return the episode's files)."""
    from belief.app.runners.transport import run_episode

    world, kind, planner, path, max_steps, files = task
    return run_episode(world, kind, planner, trace_path=path, llm=llm, max_steps=max_steps, files=files)


@run_app.command("transport")
@llm_options.endpoint_options
@run_options.pool_options
@run_options.deprecated_aliases(seed="--world-seed")
def run_transport(
    ctx: typer.Context,
    episode: int = typer.Option(0, "--episode", min=0, max=23, help="first fixed episode, index 0-23"),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="play generated worlds from this seed "
                                       "instead of the fixed episodes"),
    episodes: int = run_options.episodes(1, "number of episodes (fixed episodes from --episode, or generated "
                                            "worlds from --seed)"),
    agents: str = run_options.agents("cobel", help="an agent type (cobel, coela, silent, rhp, rhp_alone, "
                                     "ablations, cobel+coela)", **_KINDS),
    planner: Optional[str] = _PLANNER,
    out_dir: Optional[Path] = run_options.out("write each episode's global trace, its selected ToM questions (the "
                                              "grading format) and the agents' answers into DIR "
                                              "(transport_INDEX.trace|questions|answers.jsonl or transport_gen_SEED"
                                              "...; belief grade regrades them)"),
    trace: Optional[Path] = _HIDDEN_TRACE,
    as_json: bool = typer.Option(False, "--json", help="print one JSON object per episode (the last lines)"),
    force: bool = run_options.FORCE,
    max_steps: Optional[int] = typer.Option(None, "--max-steps", min=1, help="stop after this many env steps"),
    llm: bool = typer.Option(False, "--llm", help="LLM mode for cobel agents (see --llm-parts)"),
    endpoint: dict = None,
    llm_parts: Optional[str] = _LLM_PARTS,
    pool: dict = None,
):
    """Play transport_v0 episodes and print each one's figures."""
    from functools import partial

    from belief.app.cli.episode_report import play_all
    from belief.app.runners.episode_files import file_names, write_episode_files

    _check_planner(planner)
    if seed is None and episode + episodes > 24:
        _fail(f"--episode {episode} --episodes {episodes} goes past the 24 fixed episodes (0-23)")
    worlds = [("gen", s) for s in range(seed, seed + episodes)] if seed is not None \
        else list(range(episode, episode + episodes))
    names = {w: f"transport_gen_{w[1]}.trace.jsonl" if isinstance(w, tuple) else f"transport_{w}.trace.jsonl"
             for w in worlds}
    if trace is not None and (episodes != 1 or out_dir is not None):
        _fail("--trace FILE takes one episode and no --out; use --out DIR")
    run_options.refuse_bad_outputs({"--trace": trace}, (), force, tables=())
    stems = {w: names[w][:-len(".trace.jsonl")] for w in worlds}
    files = run_options.out_paths(out_dir, [n for w in worlds for n in file_names(stems[w]).values()], force)
    if llm:
        _serial_for_llm(ctx, pool)
    mode = _llm_mode(llm, [agents], endpoint, llm_parts)
    paths = {w: trace if trace is not None else files.get(names[w]) for w in worlds}
    tasks = [(w, agents, planner, str(trace) if trace else None, max_steps, out_dir is not None) for w in worlds]
    try:
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
        rows = play_all(partial(transport_episode, llm=mode) if mode is not None else transport_episode, tasks,
                        "transport episodes", **pool)
        if out_dir is not None:
            write_episode_files(out_dir, rows)
    except BeliefError as e:  # LLM mode gave up; the executor cannot start
        _fail(" ".join(str(e).split()), 1)
    except OSError as e:  # a trace file cannot be written
        _fail(f"cannot write the traces into {out_dir or trace}: {e}", 1)
    for world, r in zip(worlds, rows):
        _print_episode(r, agents, paths[world])
    if mode is not None:
        out.print(_llm_table(mode.report()))
    if as_json:
        print("".join(json.dumps(r) + "\n" for r in rows), end="")


def _print_episode(r: dict, kind: str, trace: Optional[Path]) -> None:
    def pct(x):
        return "n/a" if x is None else f"{x:.0%}"

    out.print(f"{r['name']} with {kind} ({r['n_agents']} agents, {r['targets']} targets, {r['rooms']} rooms): "
              f"transport rate {r['transport_rate']:.0%} in {r['frames']} frames, {r['messages']} messages "
              f"({r['message_tokens']} tokens, {r['comm_frames']} frames), prediction accuracy "
              f"{pct(r['prediction_accuracy'])}, belief accuracy {pct(r['belief_accuracy_world'])} (world) / "
              f"{pct(r['belief_accuracy_partner'])} (partner), miscoordination {r['miscoordination']}")
    if trace:
        out.print(f"trace: {trace}")
