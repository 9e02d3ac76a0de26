"""``belief run blocks`` (COBLOCK) and ``belief run hanabi``: seeded episodes, a table, one JSON line.

Each episode is a top-level function of (config, seed) (:mod:`belief.app.runners.blocks`,
:mod:`belief.app.runners.hanabi`), so ``--executor``/``--workers`` spread them over processes or Ray. Figures are means with
95% t intervals (:func:`belief.grading.stats.mean_ci95`); ``--vs KIND`` also plays KIND on the same seeds and
reports paired differences (:func:`belief.grading.stats.paired_diff_ci95`, ordering only when the interval
excludes 0). The progress bar is on stderr; with ``--json`` the last stdout line is one JSON object; ``--out DIR``
writes it to ``summary.json`` beside ``episodes.jsonl``.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Optional

import typer

from belief.app.cli import run_options
from belief.app.cli.app import run_app
from belief.app.cli.episode_report import check_vs, play_kinds, report
from belief.app.cli.run_options import fail

BLOCKS_FIGURES = ("success", "timesteps", "balance", "balance_norm", "messages")
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


_BLOCKS_KINDS = "belief.app.runners.blocks:AGENT_KINDS"
_HANABI_KINDS = "belief.app.runners.hanabi:AGENT_KINDS"


@run_app.command("blocks")
@run_options.pool_options
def run_blocks(
    agents: str = run_options.agents("belief", _BLOCKS_KINDS, "belief | naive | silent (old name baseline) | "
                                     "oracle (one kind for both builders)"),
    vs: Optional[str] = run_options.agents(None, _BLOCKS_KINDS, run_options.VS.help, flag="--vs"),
    episodes: int = run_options.episodes(30),
    seed: int = run_options.SEED,
    family: Optional[str] = typer.Option(None, "--family", help="independent | skill | goal (default: by seed, in turn)"),
    slip: Optional[float] = typer.Option(None, "--slip", min=0.0, max=1.0, help="probability that a placement "
                                         "slips (default: the rules', 0 for source, 0.1 for project)"),
    max_rounds: int = typer.Option(30, "--max-rounds", min=1, help="rounds before an episode is cut off"),
    rules: str = typer.Option("source", "--rules", help="source (the paper's rules) | project (the earlier variant)"),
    out_dir: Optional[Path] = run_options.out(),
    force: bool = run_options.FORCE,
    as_json: bool = run_options.JSON,
    pool: dict = None,
):
    """COBLOCK episodes: success rate, timesteps, workload balance (raw and normalised), ToM accuracy."""
    from belief.app.runners.blocks import BlocksConfig
    from belief.envs.blocks.world import RULES
    from belief.envs.blocks.tasks import FAMILIES

    check_vs(agents, vs)
    if rules not in RULES:
        fail(f"--rules must be one of {', '.join(RULES)} (got {rules!r})")
    if family is not None and family not in FAMILIES:
        fail(f"--family must be one of {', '.join(FAMILIES)} (got {family!r})")
    files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES, force)
    seeds = list(range(seed, seed + episodes))
    config = lambda kind: partial(blocks_episode, BlocksConfig(agents=kind, family=family, slip=slip,
                                                                  max_rounds=max_rounds, rules=rules))
    runs = play_kinds(config, agents, vs, seeds, "blocks", pool)
    by_family = {}
    for r in runs[agents]:
        by_family.setdefault(r["family"], []).append(r["success"])
    extra = {"success_by_family": {f: {"rate": sum(v) / len(v), "episodes": len(v)} for f, v in sorted(by_family.items())},
             "slip": slip, "rules": rules}
    report("blocks_v0", agents, vs, seeds, runs, BLOCKS_FIGURES, extra, as_json, files)


@run_app.command("hanabi")
@run_options.pool_options
@run_options.deprecated_aliases(episodes="--games")
def run_hanabi(
    agents: str = run_options.agents("belief", _HANABI_KINDS, "belief | conventional | hintless (one kind for every player)"),
    vs: Optional[str] = run_options.agents(None, _HANABI_KINDS, run_options.VS.help, flag="--vs"),
    episodes: int = run_options.episodes(100, "number of games (seeds S..S+N-1)"),
    seed: int = run_options.SEED,
    selected: bool = typer.Option(False, "--selected", help="also ask the selected ToM questions "
                                  "(belief.envs.hanabi.tom) and write them with the others"),
    out_dir: Optional[Path] = run_options.out("write episodes.jsonl, summary.json and, per game, "
                                              "hanabi_<seed>.trace|questions|answers.jsonl (belief grade "
                                              "regrades them) into DIR"),
    force: bool = run_options.FORCE,
    as_json: bool = run_options.JSON,
    pool: dict = None,
):
    """2-player Hanabi games: mean score (out of 25), fireworks, lives lost, turns, ToM accuracy."""
    from belief.app.runners.episode_files import file_names, write_episode_files
    from belief.app.runners.hanabi import HanabiConfig

    check_vs(agents, vs)
    seeds = list(range(seed, seed + episodes))
    per_game = [n for s in seeds for n in file_names(f"hanabi_{s}").values()]
    files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES + tuple(per_game), force)
    config = lambda kind: HanabiConfig(agents=kind, tom_set=selected, files=out_dir is not None and kind == agents)
    runs = play_kinds(lambda kind: partial(hanabi_game, config(kind)), agents, vs, seeds, "hanabi", pool)
    if out_dir is not None:
        write_episode_files(out_dir, runs[agents])
    for rows in runs.values():
        for r in rows:
            r.pop("_files", None)
            r.pop("tom_rows", None)
    files = {n: p for n, p in files.items() if n in run_options.AGGREGATE_FILES}
    extra = {"perfect_games": sum(r["score"] == 25 for r in runs[agents])}
    report("hanabi_v0", agents, vs, seeds, runs, HANABI_FIGURES, extra, as_json, files)
