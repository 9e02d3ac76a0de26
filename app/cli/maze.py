"""``belief run capture`` / ``belief run escape`` (LLM-Coordination's CollabCapture / CollabEscape) and
``belief coordqa`` (CoordinationQA question files, three per episode).

Each episode is :func:`belief.app.runners.maze.play_episode` (a pure function of (config, seed)); figures
are means with 95% t intervals, ``--vs KIND`` adds paired differences on the same seeds (the shared
report of :mod:`belief.app.cli.episode_report`: the one benchmark shape, docs/benchmarks.md).
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Literal, Optional

import typer

from belief.app.cli.app import app, bench_app, run_app
from belief.app.cli import run_options
from belief.app.cli.episode_report import check_vs, play_all, play_kinds, report, show_comparison
from belief.app.cli.run_options import fail
from belief.errors import BeliefError
from belief.files.atomic import atomic_write_text

CAPTURE_FIGURES = ("captured", "turns", "messages")
ESCAPE_FIGURES = ("escaped", "escaped_players", "caught", "turns", "messages")


def maze_episode(config, seed: int) -> dict:
    """A picklable per-episode function for the process pool (metrics only)."""
    from belief.app.runners.maze import play_episode

    return play_episode(config, seed)


RULES_OPTION = typer.Option("source", "--rules", help="source: LLM-Coordination's game (fixed map, full view, its "
                            "adversary); project: this project's seeded 3x3 mazes with partial view")


def _check_rules(rules: str) -> None:
    if rules not in ("source", "project"):
        fail(f"--rules must be source or project, got {rules!r}")


def _run(game: str, figures, agents, vs, episodes, seed, ask_every, out_dir, force, as_json, pool, rules="source",
         extra=None):
    from belief.app.runners.episode_files import file_names, write_episode_files
    from belief.app.runners.maze import MazeConfig

    check_vs(agents, vs)
    _check_rules(rules)
    seeds = list(range(seed, seed + episodes))
    per_episode = [n for s in seeds for n in file_names(f"{game}_{s}").values()]
    files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES + tuple(per_episode), force)
    runs = play_kinds(lambda kind: partial(maze_episode, MazeConfig(game=game, agents=kind, ask_every=ask_every,
                                                                    rules=rules,
                                                                    files=out_dir is not None and kind == agents)),
                      agents, vs, seeds, game, pool)
    if out_dir is not None:
        write_episode_files(out_dir, runs[agents])
    for rows in runs.values():
        for r in rows:
            r.pop("_files", None)
    files = {n: p for n, p in files.items() if n in run_options.AGGREGATE_FILES}
    # jp_agreement and the CoordinationQA accuracies per category are metrics of the report like the others
    report(f"{game}_v0", agents, vs, seeds, runs, figures + ("jp_agreement",), {"rules": rules, **(extra or {})},
           as_json, files)


_KINDS = "belief.app.runners.maze:AGENT_KINDS"
_GAME_FIGURES = {"capture": CAPTURE_FIGURES, "escape": ESCAPE_FIGURES}
#: the belief agent's ablations each bench also plays (escape: the same lookahead without beliefs about the partner)
_ABLATIONS = {"capture": (), "escape": ("lookahead",)}
_GAME_HELP = {"capture": "CollabCapture: capture rate, rounds, messages, ToM accuracy (95% CIs).",
              "escape": "CollabEscape: escape rate, players escaped, caught, rounds, messages, ToM accuracy "
                        "(95% CIs)."}


def _game_command(game: str):
    """``belief run capture`` / ``belief run escape``: one signature, one body."""

    @run_options.pool_options
    def command(agents: str = run_options.agents("belief", _KINDS, "belief | baseline (one kind for both players)"),
                vs: Optional[str] = run_options.agents(None, _KINDS, run_options.VS.help, flag="--vs"),
                episodes: int = run_options.episodes(30), seed: int = run_options.SEED,
                ask_every: int = typer.Option(3, "--ask-every", min=0, help="rounds between ToM question moments "
                                              "(0: none)"),
                rules: str = RULES_OPTION,
                out_dir: Optional[Path] = run_options.out("write episodes.jsonl, summary.json and, per episode, <game>_<seed>.trace|questions|answers.jsonl (belief grade regrades them) into DIR"), force: bool = run_options.FORCE,
                as_json: bool = run_options.JSON, pool: dict = None):
        _run(game, _GAME_FIGURES[game], agents, vs, episodes, seed, ask_every, out_dir, force, as_json, pool, rules)

    command.__doc__ = _GAME_HELP[game]
    command.__name__ = f"run_{game}"
    return run_app.command(game)(command)


run_capture = _game_command("capture")
run_escape = _game_command("escape")


def tom_episode(config, seed: int) -> list:
    """A picklable per-episode function: the ToM rows of one episode (for the trivial-answerer table)."""
    from belief.app.runners.maze import play_episode

    return play_episode(config, seed).get("tom_rows", [])


def _bench_game(game: str):
    """``belief bench capture`` / ``belief bench escape``: belief against the greedy baseline on the same seeds,
    one JSON line, with the ToM table (the agents beside the majority and "answer as yourself" answerers)."""

    @run_options.pool_options
    def command(episodes: int = run_options.episodes(100), seed: int = run_options.SEED,
                rules: str = RULES_OPTION,
                ask_every: int = typer.Option(3, "--ask-every", min=1, help="rounds between ToM question moments"),
                out_dir: Optional[Path] = run_options.out(), force: bool = run_options.FORCE,
                as_json: bool = run_options.JSON, pool: dict = None):
        from belief.app.runners.maze import MazeConfig
        from belief.app.cli.episode_report import comparison
        from belief.envs.maze.tom import EXTRA_SHORTCUTS
        from belief.grading.trivial import TRIVIAL_ANSWERERS, tom_table

        _check_rules(rules)
        files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES, force)
        seeds = list(range(seed, seed + episodes))
        def episode(kind):
            return partial(maze_episode, MazeConfig(game=game, agents=kind, ask_every=ask_every, rules=rules,
                                                    tom_rows=True))

        runs = play_kinds(episode, "belief", "baseline", seeds, game, pool)
        for kind in _ABLATIONS[game]:
            runs.update(play_kinds(episode, kind, None, seeds, game, pool))
        tables = {}
        for kind, results in runs.items():  # each agent's episodes ask their own questions: one table each
            rows = [row for r in results for row in r.pop("tom_rows", [])]
            tables[kind] = tom_table(rows, (*TRIVIAL_ANSWERERS, *EXTRA_SHORTCUTS), headline=kind) if rows else None
        extra = {"rules": rules, "tom": tables}
        summary = comparison(f"{game}_v0", "belief", "baseline", seeds, runs["belief"], runs["baseline"],
                             _GAME_FIGURES[game] + ("jp_agreement",), extra,
                             more={kind: runs[kind] for kind in _ABLATIONS[game]})
        show_comparison(summary, [{"agents": k, **r} for k, rs in runs.items() for r in rs], files, as_json,
                        f"{game}_v0 ({rules} rules): {episodes} episode(s) from seed {seed}; means, 95% intervals, "
                        "(n) episodes measured", "ToM questions, {kind} episodes (gold: the checker):")

    command.__doc__ = _BENCH_HELP[game]
    command.__name__ = f"bench_{game}"
    return bench_app.command(game)(command)


def choice_seed(game: str, rules: str, states: int, seed: int) -> list:
    """A picklable per-seed function: the multiple-choice questions of one seed's random states."""
    from belief.app.runners.coordqa import choice_questions

    return [{**row, "seed": seed} for row in choice_questions(game, seed, rules, states)]


@bench_app.command("coordqa")
@run_options.pool_options
def bench_coordqa(game: str = typer.Option("escape", "--game", help="capture | escape"),
                  rules: str = RULES_OPTION,
                  episodes: int = run_options.episodes(20, "number of seeds S..S+N-1 (each gives --states random states)"),
                  seed: int = run_options.SEED,
                  states: int = typer.Option(10, "--states", min=1, help="random states per seed"),
                  out_dir: Optional[Path] = run_options.out("write episodes.jsonl (one row per question) and "
                                                            "summary.json (the JSON line) into DIR"),
                  force: bool = run_options.FORCE,
                  as_json: bool = run_options.JSON,
                  pool: dict = None):
    """Multiple-choice CoordinationQA (EC / ToM / JP): the belief agent beside random, majority and single-agent
    answerers; a table, or one JSON line with --json."""
    from belief.app.results.comparison import compare, share
    from belief.app.runners.coordqa import ANSWERERS, CATEGORY_ORDER
    from belief.app.runners.maze import GAMES
    from belief.grading.trivial import tom_table

    if game not in GAMES:
        fail(f"--game must be one of {', '.join(GAMES)}, got {game!r}")
    _check_rules(rules)
    files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES, force)
    seeds = list(range(seed, seed + episodes))
    per_seed = play_all(partial(choice_seed, game, rules, states), seeds, f"coordqa {game}", **pool)
    rows = [row for rs in per_seed for row in rs]
    if not rows:
        fail("no questions were asked; try more seeds or states", 1)
    table = tom_table([{"type": r["category"], "gold": r["gold"], "answers": r["answers"]} for r in rows],
                      trivial=("random", "single_agent"))
    majority = {t: None for t in CATEGORY_ORDER}
    from belief.grading.trivial import majority_answers
    majority.update(majority_answers([{"type": r["category"], "gold": r["gold"]} for r in rows]))
    results = {}
    for answerer in ANSWERERS + ("majority",):
        marks = []
        for r in rows:
            said = majority[r["category"]] if answerer == "majority" else r["answers"].get(answerer)
            right = None if said is None else float(str(said).strip().lower() == str(r["gold"]).strip().lower())
            marks.append({"id": r["id"], **{c: (right if r["category"] == c else None) for c in CATEGORY_ORDER}})
        results[answerer] = marks
    metrics = [share(c) for c in CATEGORY_ORDER]
    summary = compare(f"coordqa_{game}", results, metrics, "belief", seed=seed, pair_key="id",
                      extra={"rules": rules, "states_per_seed": states, "seeds": episodes, "table": table})
    show_comparison(summary, rows, files, as_json, f"coordqa_{game} ({rules} rules): {len(rows)} question(s) from "
                    f"{episodes} seed(s); accuracy per category, 95% intervals, (n) questions",
                    "CoordinationQA per category ({kind} beside the trivial answerers):", tom={"belief": table})


_BENCH_HELP = {"capture": "CollabCapture, belief vs greedy on the same seeds: capture rate, rounds, ToM beside "
                          "trivial answerers (a table, or one JSON line with --json).",
               "escape": "CollabEscape, belief vs greedy and vs lookahead (its ablation: no beliefs about the partner) on "
                         "the same seeds: escape rate, rounds, ToM beside trivial answerers (a table, or one JSON "
                         "line with --json)."}
bench_capture = _bench_game("capture")
bench_escape = _bench_game("escape")


COORDQA_FILES = ("trace.jsonl", "questions.jsonl", "answers.jsonl")


def coordqa_files(out_dir: Path, game: str, seed: int) -> dict:
    return {k: out_dir / f"{game}_{seed}.{k}" for k in COORDQA_FILES}


def coordqa_episode(config, out_dir: Path, seed: int) -> dict:
    """Play one episode and write its three files (a picklable per-seed task); its summary."""
    from belief.app.runners.maze import play_episode
    from belief.grading.report import episode_id

    r = play_episode(config, seed, keep=True)
    names = coordqa_files(out_dir, config.game, seed)
    r["_trace"].write(names["trace.jsonl"])
    atomic_write_text(names["questions.jsonl"], "".join(json.dumps(q.to_json()) + "\n" for q in r["_tom"] + r["_plan"]))
    episode = episode_id(r["_trace"])
    atomic_write_text(names["answers.jsonl"], "".join(json.dumps({**a, "episode": episode}) + "\n"
                                                      for a in r["_answers"]))
    kinds = {k: sum(q.category == k for q in r["_plan"]) for k in ("EC", "JP")}
    return {"game": config.game, "seed": seed, "tom_questions": len(r["_tom"]), **kinds,
            "jp_agreement": r["jp_agreement"], "files": {k: str(p) for k, p in names.items()}}


@app.command("coordqa")
@run_options.pool_options
def coordqa_cmd(
    game: Literal["capture", "escape"] = typer.Argument(..., help="the game"),
    out_dir: Path = run_options.out("directory for each episode's trace, questions and answers files "
                                    "(GAME_SEED.trace.jsonl, ...)", default=...),
    episodes: int = run_options.episodes(1),
    seed: int = run_options.SEED,
    agents: str = run_options.agents("belief", _KINDS, "who plays (and answers): belief | baseline"),
    force: bool = run_options.FORCE,
    as_json: bool = typer.Option(False, "--json", help="print a summary as one JSON object on the last line"),
    pool: dict = None,
):
    """Episodes as CoordinationQA files: the trace, its EC / ToM / JP questions (ToM gold from the checker,
    EC/JP gold stated) and the players' answers, each episode graded by one `belief grade` call."""
    from belief.app.runners.maze import MazeConfig

    seeds = list(range(seed, seed + episodes))
    names = [p for s in seeds for p in coordqa_files(out_dir, game, s).values()]
    run_options.out_paths(out_dir, [p.name for p in names], force)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"cannot write into --out {out_dir}: {e}", 1)
    task = partial(coordqa_episode, MazeConfig(game=game, agents=agents), out_dir)
    try:
        done = play_all(task, seeds, f"coordqa {game}", **pool)
    except BeliefError as e:
        fail(str(e), 1)
    except OSError as e:
        fail(f"cannot write into --out {out_dir}: {e}", 1)
    counts = {k: sum(d[k] for d in done) for k in ("tom_questions", "EC", "JP")}
    print(f"{counts['tom_questions']} ToM, {counts['EC']} EC, {counts['JP']} JP question(s) from {len(done)} "
          f"episode(s) in {out_dir}")
    if as_json:
        summary = done[0] if len(done) == 1 else {"game": game, "episodes": done, **counts}
        print(json.dumps(summary))
