"""``belief bench overcooked`` (soups per layout and chef pairing on the overcooked-ai engine, paired CIs,
ToM and multiple-choice tables) and ``belief run overcooked`` (episodes of one pairing, one line each)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from belief.app.cli import run_options
from belief.app.cli.app import bench_app, run_app
from belief.app.cli.run_options import fail
from belief.errors import BeliefError

_LAYOUTS = "cramped_room,asymmetric_advantages,forced_coordination,coordination_ring,counter_circuit"
_PAIRINGS = ("belief+belief,belief+greedy,no_inference+no_inference,no_inference+greedy,greedy+greedy,"
             "greedy_yield+greedy_yield,random+random")


def _split(text: str, allowed: str, what: str) -> list[str]:
    items = [x.strip() for x in text.split(",") if x.strip()]
    bad = [x for x in items if what == "layout" and x not in allowed.split(",")]
    if not items or bad:
        fail(f"--{what}s: unknown {what} {', '.join(map(repr, bad)) or '(none given)'}; expected some of {allowed}", 2)
    return items


@bench_app.command("overcooked")
@run_options.pool_options
def bench_overcooked(
    episodes: int = run_options.episodes(5, "episodes per layout and pairing (seeds S..S+N-1)"),
    seed: int = run_options.SEED,
    layouts: str = typer.Option(_LAYOUTS, "--layouts", help="comma-separated layouts"),
    pairings: str = typer.Option(_PAIRINGS, "--pairings", help="comma-separated KIND+KIND (alice+bob); kinds: "
                                 "belief, no_inference, greedy, greedy_yield, random"),
    horizon: int = typer.Option(400, "--horizon", min=1, max=1000, help="timesteps per episode (overcooked-ai's usual 400; LLM-Coordination does not state its horizon)"),
    questions: bool = typer.Option(True, "--questions/--no-questions", help="also play question episodes (ToM "
                                   "and multiple-choice tables)"),
    question_horizon: int = typer.Option(400, "--question-horizon", min=1, max=1000, help="timesteps per question "
                                         "episode (default the game's 400; questions every 10 steps, so fewer "
                                         "steps give fewer questions per selected template)"),
    as_json: bool = run_options.JSON,
    out_dir: Optional[Path] = run_options.out(),
    force: bool = run_options.FORCE,
    pool: dict = None,
):
    """Soups served per layout and chef pairing on overcooked-ai (paired CIs), CPU per episode and step, ToM and
    multiple-choice scores beside trivial answerers."""
    from belief.app.bench.overcooked import bench
    from belief.app.runs.progress import progress_bar

    chosen = _split(layouts, _LAYOUTS, "layout")
    chosen_pairings = _split(pairings, "", "pairing")
    files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES, force)
    rows: list = []
    try:
        with progress_bar("overcooked layouts x pairings", total=len(chosen) * len(chosen_pairings),
                          enabled=pool["progress"]) as bar:
            summary = bench(episodes, seed, layouts=tuple(chosen), pairings=tuple(chosen_pairings),
                            horizon=horizon, questions=questions, question_horizon=question_horizon,
                            progress=lambda layout, p: bar.advance(),
                            executor=pool["executor"], workers=pool["workers"], address=pool["address"],
                            rows_out=rows)
    except BeliefError as e:
        fail(str(e), 1)
    run_options.write_aggregate(files, rows, summary)
    for layout, s in summary["by_layout"].items():
        print(layout + ": " + ", ".join(f"{p} {a['soups']:.1f} soups" for p, a in s["by_agent"].items()))
    from belief.grading.trivial import tom_tables_markdown

    for name in ("tom", "mc"):
        if summary["extra"].get(name):
            what = "ToM" if name == "tom" else "multiple-choice"
            print("\n" + tom_tables_markdown(summary["extra"][name], what + " questions, {kind} (the asked chef "
                                              "beside the trivial answerers):"))
    if as_json:
        print(json.dumps(summary))


@run_app.command("overcooked")
@run_options.pool_options
def run_overcooked(
    episodes: int = run_options.episodes(1),
    seed: int = run_options.SEED,
    layout: str = typer.Option("cramped_room", "--layout", help="one of " + _LAYOUTS.replace(",", ", ")),
    pairing: str = typer.Option("belief+belief", "--pairing", help="KIND+KIND (alice+bob)"),
    horizon: int = typer.Option(400, "--horizon", min=1, max=1000, help="timesteps per episode"),
    fov: Optional[int] = typer.Option(None, "--fov", min=0, help="partial view radius (default: full view)"),
    ask_every: Optional[int] = typer.Option(None, "--ask-every", min=0, help="steps between question moments "
                                            "(0: no questions; default: 10 with --out, else 0)"),
    as_json: bool = run_options.JSON,
    out_dir: Optional[Path] = run_options.out("write episodes.jsonl (one row per episode), summary.json (the "
                                              "JSON line) and, when questions are asked, each episode's trace, "
                                              "questions and answers (belief grade regrades them) into DIR"),
    force: bool = run_options.FORCE,
    pool: dict = None,
):
    """Play overcooked_v0 episodes of one chef pairing on one layout and print each one's figures."""
    from belief.app.cli.episode_report import play_all
    from belief.app.runners.overcooked import OvercookedConfig, parse_pairing, play_episode
    from belief.app.runs.executor import Star

    from belief.app.runners.episode_files import file_names, write_episode_files

    _split(layout, _LAYOUTS, "layout")
    ask = ask_every if ask_every is not None else (10 if out_dir is not None else 0)
    seeds = list(range(seed, seed + episodes))
    per_episode = [n for s in seeds for n in file_names(f"overcooked_{layout}_{s}").values()] if ask else []
    files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES + tuple(per_episode), force)
    config = OvercookedConfig(layout=layout, pairing=pairing, horizon=horizon, fov=fov, ask_every=ask,
                              files=out_dir is not None and ask > 0)
    try:
        parse_pairing(pairing)
        rows = play_all(Star(play_episode), [(config, s) for s in seeds], f"overcooked {pairing}", **pool)
    except BeliefError as e:
        fail(str(e), 1)
    if out_dir is not None:
        write_episode_files(out_dir, rows)
    files = {n: p for n, p in files.items() if n in run_options.AGGREGATE_FILES}
    for s, r in zip(seeds, rows):
        r.pop("_files", None)
        asked = f", {len(r['tom_rows'])} ToM questions" if "tom_rows" in r else ""
        print(f"seed {s}: {r['soups']} soups (score {r['score']}) in {r['steps']} steps, "
              f"{r['cpu_ms_per_step']:.2f} ms CPU per step{asked}")
    summary = {"layout": layout, "pairing": pairing, "ask_every": ask, "episodes": rows}
    run_options.write_aggregate(files, rows, summary)
    if as_json:
        print(json.dumps(summary))
