"""Bomb-defusal command: ``belief run bomb`` (the main job); grading lives in ``belief.app.cli.grade``.

Tables go to stdout; the progress bar goes to stderr; with ``--json`` the last stdout line is one
JSON object.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli import llm_options, run_options
from belief.app.cli.app import run_app
from belief.errors import BeliefError

out = Console(highlight=False, soft_wrap=True)

#: the options a resumed run takes from its manifest (given again, they must agree with it)
RUN_OPTIONS = ("agents", "episodes", "seed", "random_maps", "max_rounds")


def _fail(message: str, code: int = 1):
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    raise typer.Exit(code)


def _frac(x) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _team(agents: str) -> list[str]:
    from belief.app.runners.bomb import AGENT_KINDS

    kinds = [k.strip() for k in agents.split(",")]  # an empty kind (belief,,belief) is refused, not dropped
    if len(kinds) not in (1, 3) or any(k not in AGENT_KINDS for k in kinds):
        _fail(f"--agents must be one of {', '.join(AGENT_KINDS)} or three of them separated by commas "
              f"(got {agents!r})", 2)
    return kinds * 3 if len(kinds) == 1 else kinds


def _given(ctx: typer.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


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
    if figs["unreadable"]:
        q = next(q for q in run.questions if q["reading"] == "none")
        out.print(f"{figs['unreadable']} unreadable answer(s) (counted wrong), e.g. {q['episode']} {q['id']}: "
                  f"{q['answer']!r}")
    done = "" if run.played == len(eps) else f" ({len(eps) - run.played} episode(s) kept from the earlier run)"
    out.print(f"results in {run.directory}/: episodes.csv|jsonl, questions.csv|jsonl, summary.json, "
              f"manifest.json, one trace and answers file per episode{done}")


@run_app.command("bomb")
def run_bomb(
    ctx: typer.Context,
    agents: str = typer.Option("belief", "--agents", help="belief | planner | random | llm, or three "
                               "comma-separated kinds for alpha,bravo,charlie"),
    episodes: int = typer.Option(20, "--episodes", min=1, help="number of episodes (seeds seed..seed+n-1)"),
    seed: int = typer.Option(0, "--seed", help="first seed"),
    out_dir: Path = typer.Option(Path("runs/bomb"), "--out", help="run directory (refused if it exists and is not "
                                 "empty, unless --force or --resume)"),
    resume: Optional[Path] = typer.Option(None, "--resume", help="continue the run in this directory (after a crash "
                                          "or kill): finished episodes are kept, the others played"),
    force: bool = run_options.FORCE,
    random_maps: bool = typer.Option(False, "--random-maps", help="seeded random maps instead of the study's map"),
    max_rounds: int = typer.Option(30, "--max-rounds", min=1, help="rounds before an episode is cut off"),
    executor: str = run_options.EXECUTOR,
    workers: Optional[int] = run_options.WORKERS,
    address: Optional[str] = run_options.ADDRESS,
    as_json: bool = typer.Option(False, "--json", help="print one JSON object as the last line"),
    progress: bool = run_options.PROGRESS,
    base_url: Optional[str] = llm_options.BASE_URL,
    model: Optional[str] = llm_options.MODEL,
    api_key: Optional[str] = llm_options.API_KEY,
    timeout: Optional[float] = llm_options.TIMEOUT,
    max_retries: Optional[int] = llm_options.MAX_RETRIES,
    verify: bool = typer.Option(True, "--verify/--no-verify", help="llm agents: check each action against the "
                                "rules and beliefs before sending it (CAC-style self-verification)"),
    llm_tom: bool = typer.Option(True, "--llm-tom/--no-llm-tom", help="llm agents: answer ToM questions with "
                                 "the LLM (--no-llm-tom saves requests; answers are then reported unparseable)"),
):
    """Play bomb_v0 episodes; print Table 1 (score, rounds, valid actions) and ToM accuracy (Table 2)."""
    from belief.app.runners.bomb_run_dir import open_bomb_run, play_run
    from belief.app.runners.bomb import BombConfig
    from belief.app.runs.progress import progress_bar
    from belief.app.runs.executor import EXECUTORS, ray_session
    from belief.app.runs.manifest import RunManifest

    team = _team(agents)
    if executor not in EXECUTORS:
        _fail(f"--executor must be one of {', '.join(EXECUTORS)} (got {executor!r})", 2)
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
            options = RunManifest.read(resume).options
            _check_resume_options(ctx, options, {"agents": team, "episodes": episodes, "seed": seed,
                                                 "random_maps": random_maps, "max_rounds": max_rounds})
            manifest = open_bomb_run(resume, resume=True)
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

        configure(base_url=base_url, model=model, api_key=api_key, timeout=timeout, max_retries=max_retries,
                  verify=verify, tom="llm" if llm_tom else "off")
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
