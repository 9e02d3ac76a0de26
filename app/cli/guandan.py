"""``belief run guandan`` (the games of one matchup), ``belief bench guandan`` (the Guandan study's evaluation)
and ``belief bench guandan-moves`` (the legal-move timing goal): :mod:`belief.app.runners.guandan`,
:mod:`belief.app.bench.guandan`."""

from __future__ import annotations

import json

import typer

from belief.app.cli import run_options
from belief.app.cli.app import bench_app, run_app
from belief.app.cli.run_options import fail
from belief.errors import BeliefError

_KINDS = "belief.app.runners.guandan:AGENT_KINDS"
DEALS = typer.Option(1, "--deals", min=1, help="deals per game (tribute between them)")
PASS_RULE = typer.Option("free", "--pass-rule", help="free (the rules) | must_beat (a player passes only when "
                         "nothing beats the table; passes then rule cards out)")
#: how a game is played, one group for both commands: they take it as ``game`` (``deals``, ``pass_rule``)
game_options = run_options.option_group("game", {"deals": (int, DEALS), "pass_rule": (str, PASS_RULE)})


def _check_pass_rule(pass_rule: str) -> None:
    from belief.envs.guandan.world import PASS_RULES

    if pass_rule not in PASS_RULES:
        fail(f"--pass-rule must be one of {', '.join(PASS_RULES)} (got {pass_rule!r})")


def _win_line(name: str, m: dict) -> str:
    lo, hi = m["ci95"]
    return (f"{name:16s} win rate {m['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]  level gain {m['level_gain']:+.2f}  "
            f"({m['games']} games)")


def _tom_lines(tom: dict) -> list[str]:
    if not tom.get("questions"):
        return []
    from belief.grading.trivial import TRIVIAL_LIMIT  # the grading package loads the checker: not at start-up

    lines = []
    for level, entry in tom["by_order"]["by_type"].items():
        cells = "  ".join(f"{a} {entry[a]['accuracy']:.3f}" for a in tom["by_order"]["answerers"] if a in entry)
        lines.append(f"ToM {level:14s} n={entry['planner']['n']:4d}  {cells}  "
                     f"{'ToM' if entry['tom'] else f'trivial > {TRIVIAL_LIMIT:g}'}")
    return lines


@run_app.command("guandan")
@run_options.pool_options
@run_options.output_options()
@game_options
def run_guandan(
    agents: str = run_options.agents("tom", _KINDS, "team A's kind (seats 0/2, then 1/3): tom | planner | "
                                 "rule | rule_keep | random"),
    vs: str = run_options.agents("rule", _KINDS, "team B's kind: tom | planner | rule | rule_keep | random", flag="--vs"),
    episodes: int = run_options.episodes(10, "seeds S..S+N-1, each played twice: team A in seats 0/2, then "
                                             "1/3"),
    seed: int = run_options.SEED,
    game: dict = None,
    output: dict = None,
    pool: dict = None,
):
    """Play Guandan games of one matchup (team A against team B) and print each one's figures, then the win rate.

    The JSON line holds the matchup's figures (win rate with a Wilson interval, level gain, per seat pair), the
    ToM planner's accuracy beside the trivial answerers (`tom`; `extra.tom`: the level questions and the
    selected set beside the kernel's panel of shortcuts) and one row per game (`games`). `--out DIR` also
    writes, per game, its trace, its selected questions (grading format) and the planners' answers, which
    `belief grade TRACE ANSWERS --questions Q` regrades."""
    from belief.app.cli.episode_report import play_all
    from belief.app.runners.episode_files import write_episode_files
    from belief.app.runners.guandan import matchup_figures, matchup_tasks, play_game, tom_extra, tom_figures
    from belief.app.runs.executor import Star

    _check_pass_rule(game["pass_rule"])
    files = run_options.out_paths(output["out_dir"], run_options.AGGREGATE_FILES, output["force"])
    tasks = matchup_tasks(agents, vs, episodes, seed, files=output["out_dir"] is not None, **game)
    try:
        rows = play_all(Star(play_game), tasks, f"guandan {agents} vs {vs}", **pool)
    except BeliefError as e:
        fail(str(e), 1)
    if output["out_dir"] is not None:
        write_episode_files(output["out_dir"], rows)
    games = [{k: v for k, v in r.items() if k not in ("tom_rows", "selected_rows", "_files")} for r in rows]
    for r in rows:
        asked = r.get("tom_rows") or []
        right = sum(q["answers"]["planner"] == q["gold"] for q in asked)
        tom = f", ToM {right}/{len(asked)}" if asked else ""
        print(f"seed {r['seed']} (team A in seats {'1/3' if r['swap'] else '0/2'}): "
              f"{'won' if r['win'] else 'lost'}, level gain {r['level_gain']:+d}, {r['turns']} turns{tom}")
    summary = {"world": "guandan_v0", **matchup_figures(agents, vs, rows), "seed": seed, **game,
               "tom": tom_figures(rows), "extra": {"tom": tom_extra(rows)}, "games_played": games}
    print(_win_line(f"{agents}_vs_{vs}", summary))
    for line in _tom_lines(summary["tom"]):
        print(line)
    run_options.write_aggregate(files, games, summary)
    if output["as_json"]:
        print(json.dumps(summary))


@bench_app.command("guandan")
@run_options.pool_options
@run_options.output_options()
@game_options
@run_options.deprecated_aliases(episodes="--games")
def bench_guandan_cmd(
    episodes: int = run_options.episodes(40, "seeds per matchup (S..S+N-1), each played in both seatings (the "
                                             "investigated team in seats 0/2, then 1/3)"),
    seed: int = run_options.SEED,
    game: dict = None,
    output: dict = None,
    pool: dict = None,
):
    """ToM planner vs rule, random, its ablation (planner) and rule_keep: win rates with CIs, level gains, ToM accuracy.

    The JSON is the benchmark shape (each kind's team against the rule team, every seed in both seatings,
    paired by seed) plus `matchups` and `tom` (the planner's accuracy with the trivial answerers beside it)."""
    from belief.app.bench.guandan import bench_guandan, games_played
    from belief.app.runs.progress import progress_bar

    _check_pass_rule(game["pass_rule"])
    files = run_options.out_paths(output["out_dir"], run_options.AGGREGATE_FILES, output["force"])
    rows: list = []
    try:
        with progress_bar("guandan games", total=games_played(episodes), enabled=pool["progress"]) as bar:
            result = bench_guandan(episodes, seed, game["deals"], game["pass_rule"], progress=bar.advance, executor=pool["executor"],
                                   workers=pool["workers"], address=pool["address"], rows_out=rows)
    except BeliefError as e:
        fail(str(e), 1)
    run_options.write_aggregate(files, rows, result)
    if output["as_json"]:
        print(json.dumps(result))
        return
    for name, m in result["matchups"].items():
        print(_win_line(name, m))
    for line in _tom_lines(result["tom"]):
        print(line)


@bench_app.command("guandan-moves")
@run_options.figures_options
def bench_guandan_moves_cmd(
    hands: int = typer.Option(500, "--hands", min=1, help="random 27-card hands to time"),
    seed: int = run_options.SEED,
    repeat: int = typer.Option(3, "--repeat", min=1, help="calls per hand (the best counts)"),
    output: dict = None,
):
    """Time the legal-move enumeration of full 27-card Guandan hands (goal <= 5 ms); a table, or one JSON line with
    --json."""
    from belief.app.bench.guandan import bench_moves

    files = run_options.figures_files(output)
    run_options.emit_figures(bench_moves(hands, seed, repeat), output, files,
                             f"bench guandan-moves: {hands} random 27-card hands")
