"""``belief run blocks`` (COBLOCK) and ``belief run hanabi``: seeded episodes, a table, one JSON line.

Each episode is a top-level function of (config, seed) (:mod:`belief.app.blocks_runner`,
:mod:`belief.app.hanabi_runner`), so ``--executor``/``--workers`` spread them over processes or Ray. Figures are means with
95% t intervals (:func:`belief.stats.mean_ci95`); ``--vs KIND`` also plays KIND on the same seeds and
reports paired differences (:func:`belief.stats.paired_diff_ci95`, ordering only when the interval
excludes 0). The progress bar is on stderr; with ``--json`` the last stdout line is one JSON object.
"""

from __future__ import annotations

import json
import sys
from functools import partial
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli import run_options
from belief.app.cli.app import run_app
from belief.app.progress import progress_bar
from belief.errors import BeliefError
from belief.executor import run_tasks
from belief.grading import LEVELS
from belief.stats import mean_ci95, ordering, paired_diff_ci95

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

BLOCKS_FIGURES = ("success", "timesteps", "balance", "balance_norm")
HANABI_FIGURES = ("score", "fireworks", "lives_lost", "turns")


def _fail(message: str, code: int = 2):
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _play_all(fn, seeds, label: str, workers: int, progress: bool, executor: str = "local",
              address: Optional[str] = None) -> list[dict]:
    """``fn(seed)`` for every seed, in seed order, with the progress bar; on `executor` (local: a pool of
    `workers` processes, serial, or ray; :func:`belief.executor.run_tasks`)."""
    with progress_bar(label, total=len(seeds), enabled=progress) as bar:
        return run_tasks(fn, seeds, executor, workers, address, progress=bar.on_task_done)


def _ci(values) -> dict:
    """Mean and 95% interval; a share of episodes (every value 0 or 1) keeps its interval inside [0, 1]."""
    values = [float(v) for v in values]
    share = all(v in (0.0, 1.0) for v in values)
    mean, (lo, hi) = mean_ci95(values, bounds=(0.0, 1.0) if share else None)
    return {"mean": mean, "ci95": [lo, hi]}


def _tom(results) -> dict:
    correct = {lvl: sum(r.get("tom_correct", {}).get(lvl, 0) for r in results) for lvl in LEVELS}
    total = {lvl: sum(r.get("tom_total", {}).get(lvl, 0) for r in results) for lvl in LEVELS}
    return {"accuracy": {lvl: (correct[lvl] / total[lvl] if total[lvl] else None) for lvl in LEVELS},
            "questions": sum(total.values())}


def _summary(results, figures) -> dict:
    return {**{f: _ci([r[f] for r in results]) for f in figures}, "tom": _tom(results)}


def _paired(a, b, figures) -> dict:
    out_ = {}
    for f in figures:
        xs, ys = [float(r[f]) for r in a], [float(r[f]) for r in b]
        d, (lo, hi) = paired_diff_ci95(xs, ys)
        out_[f] = {"mean": d, "ci95": [lo, hi], "ordering": ordering(xs, ys) if len(xs) > 1 else "~"}
    return out_


def _table(title: str, rows: dict, figures, fmt) -> Table:
    t = Table(title=title)
    t.add_column("agents")
    for f in figures:
        t.add_column(f"{f} (95% CI)", justify="right")
    t.add_column("ToM intro / 1st / 2nd", justify="right")
    for name, s in rows.items():
        acc = s["tom"]["accuracy"]
        tom = " / ".join("n/a" if acc[lvl] is None else f"{100 * acc[lvl]:.1f}%" for lvl in LEVELS)
        t.add_row(name, *[f"{fmt(s[f]['mean'])} [{fmt(s[f]['ci95'][0])}, {fmt(s[f]['ci95'][1])}]" for f in figures], tom)
    return t


def _report(world: str, agents: str, vs: Optional[str], seeds, main, other, figures, extra: dict, as_json: bool):
    rows = {agents: _summary(main, figures)}
    if other is not None:
        rows[vs] = _summary(other, figures)
    out.print(_table(f"{world}: {len(seeds)} episode(s) from seed {seeds[0]}", rows, figures, lambda x: f"{x:.3f}"))
    figures_json = {"world": world, "agents": agents, "episodes": len(seeds), "seed": seeds[0], **rows[agents], **extra}
    if other is not None:
        diff = _paired(main, other, figures)
        t = Table(title=f"paired differences {agents} - {vs} (same seeds), 95% CI; '~': no ordering")
        for col in ("figure", "difference", "95% CI", "ordering"):
            t.add_column(col, justify="right")
        for f, d in diff.items():
            t.add_row(f, f"{d['mean']:+.3f}", f"[{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]", d["ordering"])
        out.print(t)
        figures_json["vs"] = {"agents": vs, **rows[vs], "paired_diff": diff}
    if as_json:
        print(json.dumps(figures_json))


def _check_kinds(agents: str, vs: Optional[str], kinds) -> None:
    for name, value in (("--agents", agents), ("--vs", vs)):
        if value is not None and value not in kinds:
            _fail(f"{name} must be one of {', '.join(kinds)} (got {value!r})")
    if vs is not None and vs == agents:
        _fail("--vs must name another agent kind than --agents")


def blocks_episode(config, seed: int) -> dict:
    """A picklable per-episode function for the process pool (metrics only, no trace)."""
    from belief.app.blocks_runner import play_episode

    return play_episode(config, seed)


def hanabi_game(config, seed: int) -> dict:
    from belief.app.hanabi_runner import play_game

    r = play_game(config, seed)
    r["lives_lost"] = 3 - r["lives"]
    return r


@run_app.command("blocks")
def run_blocks(
    agents: str = typer.Option("belief", "--agents", help="belief | baseline | oracle (one kind for both builders)"),
    vs: Optional[str] = typer.Option(None, "--vs", help="also play this kind on the same seeds; paired differences"),
    episodes: int = typer.Option(30, "--episodes", min=1, help="number of episodes (seeds seed..seed+n-1)"),
    seed: int = typer.Option(0, "--seed", help="first seed"),
    family: Optional[str] = typer.Option(None, "--family", help="independent | skill | goal (default: by seed, in turn)"),
    slip: float = typer.Option(0.1, "--slip", min=0.0, max=1.0, help="probability that a placement slips"),
    max_rounds: int = typer.Option(30, "--max-rounds", min=1, help="rounds before an episode is cut off"),
    executor: str = run_options.EXECUTOR,
    workers: int = typer.Option(1, "--workers", min=1, help="processes (local) or CPUs (ray)"),
    address: Optional[str] = run_options.ADDRESS,
    as_json: bool = typer.Option(False, "--json", help="print one JSON object as the last line"),
    progress: bool = run_options.PROGRESS,
):
    """COBLOCK episodes: success rate, timesteps, workload balance (raw and normalised), ToM accuracy."""
    from belief.app.blocks_runner import AGENT_KINDS, BlocksConfig
    from belief.envs.blocks_tasks import FAMILIES

    _check_kinds(agents, vs, AGENT_KINDS)
    if family is not None and family not in FAMILIES:
        _fail(f"--family must be one of {', '.join(FAMILIES)} (got {family!r})")
    seeds = list(range(seed, seed + episodes))
    runs = {}
    try:
        for kind in [agents] + ([vs] if vs else []):
            cfg = BlocksConfig(agents=kind, family=family, slip=slip, max_rounds=max_rounds)
            runs[kind] = _play_all(partial(blocks_episode, cfg), seeds, f"blocks {kind}", workers, progress,
                                   executor, address)
    except BeliefError as e:
        _fail(str(e), 1)
    by_family = {}
    for r in runs[agents]:
        by_family.setdefault(r["family"], []).append(r["success"])
    extra = {"success_by_family": {f: {"rate": sum(v) / len(v), "episodes": len(v)} for f, v in sorted(by_family.items())},
             "slip": slip}
    _report("blocks_v0", agents, vs, seeds, runs[agents], runs.get(vs), BLOCKS_FIGURES, extra, as_json)


@run_app.command("hanabi")
def run_hanabi(
    agents: str = typer.Option("belief", "--agents", help="belief | hintless (one kind for both players)"),
    vs: Optional[str] = typer.Option(None, "--vs", help="also play this kind on the same seeds; paired differences"),
    games: int = typer.Option(100, "--games", min=1, help="number of games (seeds seed..seed+n-1)"),
    seed: int = typer.Option(0, "--seed", help="first seed"),
    executor: str = run_options.EXECUTOR,
    workers: int = typer.Option(1, "--workers", min=1, help="processes (local) or CPUs (ray)"),
    address: Optional[str] = run_options.ADDRESS,
    as_json: bool = typer.Option(False, "--json", help="print one JSON object as the last line"),
    progress: bool = run_options.PROGRESS,
):
    """2-player Hanabi games: mean score (out of 25), fireworks, lives lost, turns, ToM accuracy."""
    from belief.app.hanabi_runner import AGENT_KINDS, HanabiConfig

    _check_kinds(agents, vs, tuple(AGENT_KINDS))
    seeds = list(range(seed, seed + games))
    runs = {}
    try:
        for kind in [agents] + ([vs] if vs else []):
            runs[kind] = _play_all(partial(hanabi_game, HanabiConfig(agents=kind)), seeds, f"hanabi {kind}",
                                   workers, progress, executor, address)
    except BeliefError as e:
        _fail(str(e), 1)
    extra = {"perfect_games": sum(r["score"] == 25 for r in runs[agents])}
    _report("hanabi_v0", agents, vs, seeds, runs[agents], runs.get(vs), HANABI_FIGURES, extra, as_json)
