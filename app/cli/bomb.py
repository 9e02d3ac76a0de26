"""Bomb-defusal command: ``belief run bomb`` (the main job); grading lives in ``belief.app.cli.grade``.

Tables go to stdout; the progress bar goes to stderr; with ``--json`` the last stdout line is one
JSON object.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli import llm_options
from belief.app.cli.app import run_app
from belief.errors import BeliefError

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 1):
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _pct(x) -> str:
    return "n/a" if x is None else f"{x:.1f}%"


@run_app.command("bomb")
def run_bomb(
    agents: str = typer.Option("belief", "--agents", help="belief | planner | random | llm, or three "
                               "comma-separated kinds for alpha,bravo,charlie"),
    episodes: int = typer.Option(20, "--episodes", min=1, help="number of episodes (seeds seed..seed+n-1)"),
    seed: int = typer.Option(0, "--seed", help="first seed"),
    out_dir: Path = typer.Option(Path("runs/bomb"), "--out", help="directory for traces, questions, answers"),
    random_maps: bool = typer.Option(False, "--random-maps", help="seeded random maps instead of the study's map"),
    max_rounds: int = typer.Option(30, "--max-rounds", min=1, help="rounds before an episode is cut off"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object as the last line"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="progress bar on stderr"),
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
    """Play bomb_v0 episodes; print Table 1 (score, rounds, valid action %) and ToM accuracy (Table 2)."""
    from rich.progress import Progress

    from belief.app.bomb_runner import AGENT_KINDS, run_episode
    from belief.grading import LEVEL_TITLES, LEVELS, Report, grade

    kinds = [k.strip() for k in agents.split(",") if k.strip()]
    if len(kinds) not in (1, 3) or any(k not in AGENT_KINDS for k in kinds):
        _fail(f"--agents must be one of {', '.join(AGENT_KINDS)} or three of them separated by commas "
              f"(got {agents!r})", 2)
    team = kinds * 3 if len(kinds) == 1 else kinds
    if "llm" in team:
        from belief.agents.bomb_llm import configure

        configure(base_url=base_url, model=model, api_key=api_key, timeout=timeout, max_retries=max_retries,
                  verify=verify, tom="llm" if llm_tom else "off")
    results, report = [], Report()
    try:
        with Progress(console=err, disable=not progress, transient=True) as bar:
            task = bar.add_task("bomb episodes", total=episodes)
            for i in range(episodes):
                m = run_episode(team, seed + i, random_maps=random_maps, max_rounds=max_rounds, out=out_dir)
                m.pop("_trace", None)
                rep = grade(m.pop("_questions"), m.pop("_answers"))
                m["tom_accuracy"] = {lvl: rep.accuracy(lvl) for lvl in LEVELS}
                report.merge(rep)
                results.append(m)
                bar.advance(task)
    except (BeliefError, OSError) as e:
        _fail(str(e))
    (Path(out_dir) / "summary.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))

    name = agents if len(kinds) == 3 else kinds[0]
    t1 = Table(title=f"bomb_v0, {name} agents, {episodes} episode(s) from seed {seed} (Table 1)")
    for col in ("seed", "score", "rounds", "valid action %", "end"):
        t1.add_column(col, justify="right")
    for r in results:
        t1.add_row(str(r["seed"]), f"{r['score']}/{r['max_score']}", str(r["rounds"]), f"{r['valid_action_pct']:.1f}",
                   r["end_reason"])
    mean = {"score": statistics.mean(r["score"] for r in results),
            "rounds": statistics.mean(r["rounds"] for r in results),
            "valid_action_pct": statistics.mean(r["valid_action_pct"] for r in results)}
    t1.add_row("mean", f"{mean['score']:.1f}", f"{mean['rounds']:.2f}", f"{mean['valid_action_pct']:.1f}",
               f"{sum(r['completed'] for r in results)}/{len(results)} full", end_section=True)
    out.print(t1)
    t2 = Table(title="ToM inference accuracy, answers from the agents' own beliefs (Table 2)")
    t2.add_column("agents")
    for lvl in LEVELS:
        t2.add_column(LEVEL_TITLES[lvl], justify="right")
    t2.add_column("questions", justify="right")
    t2.add_row(name, *[_pct(report.accuracy(lvl)) for lvl in LEVELS], str(sum(report.total.values())))
    out.print(t2)
    if report.unparseable:
        out.print(f"{len(report.unparseable)} unparseable answer(s) (counted wrong), e.g. {report.unparseable[0]}")
    out.print(f"traces, questions and answers in {out_dir}/")
    usage = None
    if "llm" in team:
        from belief.agents.bomb_llm import team_usage

        usage = team_usage()
        out.print(f"LLM usage (from the endpoint's usage field): {json.dumps(usage)}")
    if as_json:
        figures = {"episodes": episodes, "score": mean["score"], "rounds": mean["rounds"],
                   "valid_action_pct": mean["valid_action_pct"],
                   "tom_accuracy": {lvl: report.accuracy(lvl) for lvl in LEVELS}}
        if usage is not None:
            figures["llm_usage"] = usage
        print(json.dumps(figures))

