"""``belief bench guandan`` (the Guandan study's evaluation) and ``belief bench guandan-moves`` (the legal-move
timing goal): :mod:`belief.app.bench.guandan`."""

from __future__ import annotations

import json

import typer

from belief.app.cli import run_options
from belief.app.cli.app import bench_app
from belief.app.cli.run_options import fail


@bench_app.command("guandan")
@run_options.deprecated_aliases(episodes="--games")
def bench_guandan_cmd(
    episodes: int = run_options.episodes(40, "games per matchup (seeds S..S+N-1; the investigated team in seats "
                                             "0/2 for the first half, 1/3 for the second); --games works too"),
    seed: int = run_options.SEED,
    deals: int = typer.Option(1, "--deals", min=1, help="deals per game (tribute between them)"),
    pass_rule: str = typer.Option("free", "--pass-rule", help="free (the rules) | must_beat (a player passes only "
                                  "when nothing beats the table; passes then rule cards out)"),
    as_json: bool = run_options.JSON,
    progress: bool = run_options.PROGRESS,
):
    """ToM planner vs rule, ToM vs random, rule vs random: win rates with CIs, level gains, ToM accuracy by order.

    The JSON is the benchmark shape (each kind's team against the random team, paired by seed) plus
    `matchups` and `tom` (the planner's accuracy with the trivial answerers beside it)."""
    from belief.app.bench.guandan import bench_guandan
    from belief.app.runs.progress import progress_bar
    from belief.envs.guandan.world import PASS_RULES

    if pass_rule not in PASS_RULES:
        fail(f"--pass-rule must be one of {', '.join(PASS_RULES)} (got {pass_rule!r})")
    with progress_bar("guandan games", total=4 * episodes, enabled=progress) as bar:
        result = bench_guandan(episodes, seed, deals, pass_rule, progress=bar.advance)
    if not as_json:
        for name, m in result["matchups"].items():
            lo, hi = m["ci95"]
            print(f"{name:16s} win rate {m['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]  level gain {m['level_gain']:+.2f}"
                  f"  ({m['games']} games)")
        tom = result["tom"]
        if tom.get("questions"):
            for level, entry in tom["by_order"]["by_type"].items():
                cells = "  ".join(f"{a} {entry[a]['accuracy']:.3f}" for a in tom["by_order"]["answerers"]
                                   if a in entry)
                print(f"ToM {level:14s} n={entry['planner']['n']:4d}  {cells}  "
                      f"{'ToM' if entry['tom'] else 'trivial > 0.8'}")
    print(json.dumps(result))


@bench_app.command("guandan-moves")
def bench_guandan_moves_cmd(
    hands: int = typer.Option(500, "--hands", min=1, help="random 27-card hands to time"),
    seed: int = run_options.SEED,
    repeat: int = typer.Option(3, "--repeat", min=1, help="calls per hand (the best counts)"),
):
    """Time the legal-move enumeration of full 27-card Guandan hands (goal <= 5 ms); one JSON line."""
    from belief.app.bench.guandan import bench_moves

    print(json.dumps(bench_moves(hands, seed, repeat)))
