"""Bomb-defusal command: ``belief run bomb`` (the main job); grading lives in ``belief.app.cli.grade``.

Tables go to stdout; the progress bar goes to stderr; with ``--json`` the last stdout line is one
JSON object.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli import llm_options, run_options
from belief.app.cli.app import bench_app, run_app
from belief.errors import BeliefError

out = Console(highlight=False, soft_wrap=True)

#: the options a resumed run takes from its manifest (given again, they must agree with it)
RUN_OPTIONS = ("agents", "episodes", "seed", "random_maps", "max_rounds")


def _fail(message: str, code: int = 1):
    run_options.fail(message, code)


def _frac(x) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _team(agents: str) -> list[str]:
    """The kinds of alpha, bravo and charlie (--agents is checked by its option: one kind or three)."""
    kinds = run_options.split_kinds(agents)
    return kinds * 3 if len(kinds) == 1 else kinds


_given = run_options.given
RANDOM_MAPS = typer.Option(False, "--random-maps", help="seeded random maps instead of the study's map")
MAX_ROUNDS = typer.Option(30, "--max-rounds", min=1, help="rounds before an episode is cut off")


def _check_resume_options(ctx: typer.Context, manifest_options: dict, given: dict) -> None:
    """Options repeated with --resume must agree with the run's manifest."""
    for name in RUN_OPTIONS:
        if _given(ctx, name) and given[name] != manifest_options.get(name):
            flag = "--" + name.replace("_", "-")
            _fail(f"{flag} {given[name]!r} differs from the run being resumed ({manifest_options.get(name)!r}); "
                  f"drop {flag} to continue that run", 2)


def _tables(run, name: str) -> None:
    from belief.grading.report import LEVEL_TITLES, LEVELS

    eps, figs = run.episodes, run.figures
    first = eps[0]["seed"]
    t1 = Table(title=f"bomb_v0, {name} agents, {len(eps)} episode(s) from seed {first} (Table 1)")
    for col in ("seed", "score", "rounds", "valid actions", "end"):
        t1.add_column(col, justify="right")
    for r in eps:
        t1.add_row(str(r["seed"]), f"{r['score']}/{r['max_score']}", str(r["rounds"]), _frac(r["valid_action_rate"]),
                   r["end_reason"])
    t1.add_row("mean", f"{figs['score']:.1f}", f"{figs['rounds']:.2f}", _frac(figs["valid_action_rate"]),
               f"{figs['completed']}/{len(eps)} full", end_section=True)
    out.print(t1)
    t2 = Table(title="ToM inference accuracy (fraction correct), answers from the agents' own beliefs (Table 2)")
    t2.add_column("agents")
    for lvl in LEVELS:
        t2.add_column(LEVEL_TITLES[lvl], justify="right")
    t2.add_column("questions", justify="right")
    t2.add_row(name, *[_frac(figs["tom_accuracy"][lvl]) for lvl in LEVELS], str(figs["questions"]))
    out.print(t2)
    _trivial_table(figs.get("extra") or {})
    if figs["unreadable"]:
        q = next(q for q in run.questions if q["reading"] == "none")
        out.print(f"{figs['unreadable']} unreadable answer(s) (counted wrong), e.g. {q['episode']} {q['id']}: "
                  f"{q['answer']!r}")
    done = "" if run.played == len(eps) else f" ({len(eps) - run.played} episode(s) kept from the earlier run)"
    out.print(f"results in {run.directory}/: episodes.csv|jsonl, questions.csv|jsonl, summary.json, "
              f"manifest.json, one trace and answers file per episode{done}")


def _trivial_table(extra: dict) -> None:
    """The agents' ToM accuracy per template (and the study's three levels) beside every shortcut of the panel,
    the best one and the agents' margin over it; a type whose best shortcut gets more than 0.65 is not ToM."""
    from belief.grading.trivial import tom_rows_markdown

    for key, what in (("tom", "per template (study and probe sets by level; the selected templates)"),
                      ("tom_levels", "the study's three levels (Table 2 of Li et al.)")):
        if extra.get(key):
            out.print(f"ToM accuracy {what}, beside the shortcuts (belief.grading.shortcuts):", markup=False)
            out.print(tom_rows_markdown(extra[key]), markup=False)


@run_app.command("bomb")
@llm_options.endpoint_options
def run_bomb(
    ctx: typer.Context,
    agents: str = run_options.agents("belief", "belief.app.runners.bomb:AGENT_KINDS", "belief | planner | random | "
                                     "llm, or three comma-separated kinds for alpha,bravo,charlie", counts=(1, 3)),
    episodes: int = run_options.episodes(20),
    seed: int = run_options.SEED,
    out_dir: Path = run_options.out("run directory (refused if it exists and is not empty, unless --force or "
                                    "--resume)", default=Path("runs/bomb")),
    resume: Optional[Path] = typer.Option(None, "--resume", help="continue the run in this directory (after a crash "
                                          "or kill): finished episodes are kept, the others played"),
    force: bool = run_options.FORCE,
    random_maps: bool = RANDOM_MAPS,
    max_rounds: int = MAX_ROUNDS,
    executor: run_options.Executor = run_options.EXECUTOR,
    workers: int = run_options.WORKERS,
    address: Optional[str] = run_options.ADDRESS,
    as_json: bool = run_options.JSON,
    progress: bool = run_options.PROGRESS,
    endpoint: dict = None,
    verify: bool = typer.Option(True, "--verify/--no-verify", help="llm agents: check each action against the "
                                "rules and beliefs before sending it (CAC-style self-verification)"),
    llm_tom: bool = typer.Option(True, "--llm-tom/--no-llm-tom", help="llm agents: answer ToM questions with "
                                 "the LLM (--no-llm-tom saves requests; answers are then reported unparseable)"),
):
    """Play bomb_v0 episodes; print Table 1 (score, rounds, valid actions) and ToM accuracy (Table 2)."""
    from belief.app.runners.bomb_run_dir import open_bomb_run, play_run
    from belief.app.runners.bomb import BombConfig
    from belief.app.runs.progress import progress_bar
    from belief.app.runs.executor import ray_session

    team = _team(agents)
    if address is not None and executor != "ray":
        _fail("--address applies to --executor ray only", 2)
    if resume is not None and force:
        _fail("--resume continues a run and --force replaces it: give one of them", 2)
    if resume is not None and _given(ctx, "out_dir") and out_dir != resume:
        _fail(f"--resume {resume} and --out {out_dir} name different directories", 2)
    if "llm" in team:
        if executor != "serial" and _given(ctx, "executor"):
            _fail("llm agents share one client in this process: use --executor serial (their default)", 2)
        executor = "serial"
    session = contextlib.ExitStack()
    try:
        if executor == "ray":  # started (or joined) before anything is written
            session.enter_context(ray_session(workers, address))
        if resume is not None:
            manifest = open_bomb_run(resume, resume=True)  # the manifest checked against its options and hashes
            _check_resume_options(ctx, manifest.options, {"agents": team, "episodes": episodes, "seed": seed,
                                                          "random_maps": random_maps, "max_rounds": max_rounds})
        else:
            config = BombConfig(agents=tuple(team), random_maps=random_maps, max_rounds=max_rounds)
            manifest = open_bomb_run(out_dir, config, seed, episodes, force=force)
    except BeliefError as e:
        session.close()
        _fail(str(e))
    except OSError as e:
        session.close()
        _fail(f"cannot write the run directory: {e}")
    team = list(manifest.options["agents"])
    if "llm" in team:
        from belief.agents.bomb.llm import configure

        configure(**endpoint, verify=verify, tom="llm" if llm_tom else "off")
    try:
        with session, progress_bar("bomb episodes", total=len(manifest.pending()), enabled=progress) as bar:
            run = play_run(manifest, executor=executor, workers=workers, address=address, progress=bar.on_task_done)
    except BeliefError as e:
        _fail(str(e))
    except OSError as e:
        _fail(f"cannot write the run directory: {e}")
    _tables(run, team[0] if len(set(team)) == 1 else ",".join(team))
    figures = dict(run.figures)
    if "llm" in team:
        from belief.agents.bomb.llm import team_usage

        figures["llm_usage"] = team_usage()
        out.print(f"LLM usage (from the endpoint's usage field): {json.dumps(figures['llm_usage'])}")
    if as_json:
        print(json.dumps(figures))


@bench_app.command("bomb")
@run_options.pool_options
@run_options.output_options()
def bench_bomb(
    agents: str = run_options.agents("belief,no_minds,planner,random,mixed", "belief.app.bench.bomb:TEAMS",
                                     "comma-separated teams, each once: belief, no_minds (the belief agent with its "
                                     "beliefs about teammates off), planner, random (three of a kind), mixed (alpha "
                                     "belief, bravo planner, charlie random)", counts=None, distinct=True),
    episodes: int = run_options.episodes(20, "episodes per team (seeds S..S+N-1)"),
    seed: int = run_options.SEED,
    random_maps: bool = RANDOM_MAPS,
    max_rounds: int = MAX_ROUNDS,
    output: dict = None,
    pool: dict = None,
):
    """bomb_v0 agent teams (belief, no_minds, planner, random, mixed) on the same seeds: score, rounds, valid
    actions, message words, ToM accuracy per level beside trivial answerers, paired differences."""
    from functools import partial

    from belief.app.bench.bomb import bench_episode, summarise
    from belief.app.cli.episode_report import play_all, show_comparison

    teams = run_options.split_kinds(agents)
    files = run_options.out_paths(output["out_dir"], run_options.AGGREGATE_FILES, output["force"])
    seeds = list(range(seed, seed + episodes))
    try:
        runs = {team: play_all(partial(bench_episode, team, random_maps, max_rounds), seeds, f"bomb {team}", **pool)
                for team in teams}
    except BeliefError as e:
        _fail(str(e))
    summary = summarise(runs, seed, random_maps, max_rounds)
    rows = [{k: v for k, v in r.items() if k != "tom_rows"} for rs in runs.values() for r in rs]
    show_comparison(summary, rows, files, output["as_json"], f"bomb_v0: {episodes} episode(s) per team from seed {seed}; means, "
                    "95% intervals, (n) episodes measured", "ToM questions, {kind} team (gold: the checker; "
                    "a type whose best shortcut gets > 0.65 is not ToM):")
