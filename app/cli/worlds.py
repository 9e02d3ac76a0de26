"""``belief run blocks`` (COBLOCK) and ``belief run hanabi``: seeded episodes, a table, one JSON line.

Each episode is a top-level function of (config, seed) (:mod:`belief.app.runners.blocks`,
:mod:`belief.app.runners.hanabi`), so ``--executor``/``--workers`` spread them over processes or Ray. Figures are means with
95% t intervals (:func:`belief.grading.stats.mean_ci95`); ``--vs KIND`` also plays KIND on the same seeds and
reports paired differences (:func:`belief.grading.stats.paired_diff_ci95`, ordering only when the interval
excludes 0). The progress bar is on stderr; with ``--json`` the last stdout line is one JSON object.
"""

from __future__ import annotations

from functools import partial
from typing import Optional

import typer

from belief.app.cli import run_options
from belief.app.cli.app import run_app
from belief.app.cli.episode_report import check_kinds, fail, play_all, report
from belief.errors import BeliefError

BLOCKS_FIGURES = ("success", "timesteps", "balance", "balance_norm")
HANABI_FIGURES = ("score", "fireworks", "lives_lost", "turns")


def blocks_episode(config, seed: int) -> dict:
    """A picklable per-episode function for the process pool (metrics only, no trace)."""
    from belief.app.runners.blocks import play_episode

    return play_episode(config, seed)


def hanabi_game(config, seed: int) -> dict:
    from belief.app.runners.hanabi import play_game

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
    from belief.app.runners.blocks import AGENT_KINDS, BlocksConfig
    from belief.envs.blocks.tasks import FAMILIES

    check_kinds(agents, vs, AGENT_KINDS)
    if family is not None and family not in FAMILIES:
        fail(f"--family must be one of {', '.join(FAMILIES)} (got {family!r})")
    seeds = list(range(seed, seed + episodes))
    runs = {}
    try:
        for kind in [agents] + ([vs] if vs else []):
            cfg = BlocksConfig(agents=kind, family=family, slip=slip, max_rounds=max_rounds)
            runs[kind] = play_all(partial(blocks_episode, cfg), seeds, f"blocks {kind}", workers, progress,
                                   executor, address)
    except BeliefError as e:
        fail(str(e), 1)
    by_family = {}
    for r in runs[agents]:
        by_family.setdefault(r["family"], []).append(r["success"])
    extra = {"success_by_family": {f: {"rate": sum(v) / len(v), "episodes": len(v)} for f, v in sorted(by_family.items())},
             "slip": slip}
    report("blocks_v0", agents, vs, seeds, runs[agents], runs.get(vs), BLOCKS_FIGURES, extra, as_json)


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
    from belief.app.runners.hanabi import AGENT_KINDS, HanabiConfig

    check_kinds(agents, vs, tuple(AGENT_KINDS))
    seeds = list(range(seed, seed + games))
    runs = {}
    try:
        for kind in [agents] + ([vs] if vs else []):
            runs[kind] = play_all(partial(hanabi_game, HanabiConfig(agents=kind)), seeds, f"hanabi {kind}",
                                   workers, progress, executor, address)
    except BeliefError as e:
        fail(str(e), 1)
    extra = {"perfect_games": sum(r["score"] == 25 for r in runs[agents])}
    report("hanabi_v0", agents, vs, seeds, runs[agents], runs.get(vs), HANABI_FIGURES, extra, as_json)
