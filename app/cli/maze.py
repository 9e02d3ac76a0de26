"""``belief run capture`` / ``belief run escape`` (LLM-Coordination's CollabCapture / CollabEscape) and
``belief coordqa`` (CoordinationQA question files from one episode).

Each episode is :func:`belief.app.runners.maze.play_episode` (a pure function of (config, seed)); figures
are means with 95% t intervals, ``--vs KIND`` adds paired differences on the same seeds (the shared
report of :mod:`belief.app.cli.worlds`).
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Optional

import typer

from belief.app.cli.app import app, run_app
from belief.app.cli import run_options
from belief.app.cli.episode_report import check_kinds, fail, play_all, report
from belief.errors import BeliefError
from belief.grading.report import episode_id
from belief.grading.stats import mean_ci95, ordering, paired_diff_ci95

CAPTURE_FIGURES = ("captured", "turns", "messages")
ESCAPE_FIGURES = ("escaped", "escaped_players", "caught", "turns", "messages")
COORDQA_CATEGORIES = ("EC", "ToM", "JP")


def _accuracies(results, category: str) -> dict:
    """``{seed: accuracy}`` of one CoordinationQA category, for the episodes that asked any."""
    out_ = {}
    for r in results:
        correct, total = r.get("coordqa", {}).get(category, (0, 0))
        if total:
            out_[r["seed"]] = correct / total
    return out_


def coordqa_summary(main, other=None) -> dict:
    """Per category: the mean per-episode accuracy with its 95% t interval, the pooled accuracy and the
    question count; with ``other`` also the paired difference on the seeds both asked about."""
    out_ = {}
    for cat in COORDQA_CATEGORIES:
        row = {}
        for label, results in (("agents", main), ("vs", other)):
            if results is None:
                continue
            acc = _accuracies(results, cat)
            correct = sum(r.get("coordqa", {}).get(cat, (0, 0))[0] for r in results)
            total = sum(r.get("coordqa", {}).get(cat, (0, 0))[1] for r in results)
            mean, (lo, hi) = mean_ci95(list(acc.values())) if acc else (None, (None, None))
            row[label] = {"mean": mean, "ci95": [lo, hi], "pooled": correct / total if total else None,
                          "questions": total, "episodes": len(acc)}
        if other is not None:
            a, b = _accuracies(main, cat), _accuracies(other, cat)
            seeds = sorted(set(a) & set(b))
            if len(seeds) > 1:
                xs, ys = [a[s] for s in seeds], [b[s] for s in seeds]
                d, (lo, hi) = paired_diff_ci95(xs, ys)
                row["paired_diff"] = {"mean": d, "ci95": [lo, hi], "ordering": ordering(xs, ys), "episodes": len(seeds)}
        out_[cat] = row
    return out_


def _print_coordqa(summary: dict, agents: str, vs) -> None:
    from belief.app.cli.episode_report import out

    fmt = lambda s: "n/a" if s["mean"] is None else f"{s['mean']:.3f} [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}]"
    for cat, row in summary.items():
        line = f"CoordinationQA {cat}: {agents} {fmt(row['agents'])}"
        if "vs" in row:
            line += f"; {vs} {fmt(row['vs'])}"
        if "paired_diff" in row:
            d = row["paired_diff"]
            line += f"; difference {d['mean']:+.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}] {d['ordering']}"
        out.print(line)


def maze_episode(config, seed: int) -> dict:
    """A picklable per-episode function for the process pool (metrics only)."""
    from belief.app.runners.maze import play_episode

    r = play_episode(config, seed)
    r["jp_agreement"] = r["jp_agreement"] if r["jp_agreement"] is not None else 0.0
    return r


def _run(game: str, figures, agents, vs, episodes, seed, ask_every, workers, as_json, progress, executor, address):
    from belief.app.runners.maze import AGENT_KINDS, MazeConfig

    check_kinds(agents, vs, AGENT_KINDS)
    seeds = list(range(seed, seed + episodes))
    runs = {}
    try:
        for kind in [agents] + ([vs] if vs else []):
            cfg = MazeConfig(game=game, agents=kind, ask_every=ask_every)
            runs[kind] = play_all(partial(maze_episode, cfg), seeds, f"{game} {kind}", workers, progress,
                                  executor, address)
    except BeliefError as e:
        fail(str(e), 1)
    jp = [r["jp_agreement"] for r in runs[agents]]
    cq = coordqa_summary(runs[agents], runs.get(vs))
    _print_coordqa(cq, agents, vs)
    extra = {"jp_agreement": sum(jp) / len(jp), "coordqa": cq}
    report(f"{game}_v0", agents, vs, seeds, runs[agents], runs.get(vs), figures, extra, as_json)


_AGENTS = typer.Option("belief", "--agents", help="belief | baseline (one kind for both players)")
_VS = typer.Option(None, "--vs", help="also play this kind on the same seeds; paired differences")
_EPISODES = typer.Option(30, "--episodes", min=1, help="number of episodes (seeds seed..seed+n-1)")
_SEED = typer.Option(0, "--seed", help="first seed")
_ASK = typer.Option(3, "--ask-every", min=0, help="rounds between ToM question moments (0: none)")
_WORKERS = typer.Option(1, "--workers", min=1, help="processes")
_JSON = typer.Option(False, "--json", help="print one JSON object as the last line")
_PROGRESS = run_options.PROGRESS
_EXECUTOR = run_options.EXECUTOR
_ADDRESS = run_options.ADDRESS


@run_app.command("capture")
def run_capture(agents: str = _AGENTS, vs: Optional[str] = _VS, episodes: int = _EPISODES, seed: int = _SEED,
                ask_every: int = _ASK, workers: int = _WORKERS, as_json: bool = _JSON, progress: bool = _PROGRESS,
                executor: str = _EXECUTOR, address: Optional[str] = _ADDRESS):
    """CollabCapture: capture rate, rounds, messages, ToM accuracy (95% CIs)."""
    _run("capture", CAPTURE_FIGURES, agents, vs, episodes, seed, ask_every, workers, as_json, progress, executor, address)


@run_app.command("escape")
def run_escape(agents: str = _AGENTS, vs: Optional[str] = _VS, episodes: int = _EPISODES, seed: int = _SEED,
               ask_every: int = _ASK, workers: int = _WORKERS, as_json: bool = _JSON, progress: bool = _PROGRESS,
               executor: str = _EXECUTOR, address: Optional[str] = _ADDRESS):
    """CollabEscape: both-escape rate, players escaped, caught, rounds, messages, ToM accuracy (95% CIs)."""
    _run("escape", ESCAPE_FIGURES, agents, vs, episodes, seed, ask_every, workers, as_json, progress, executor, address)


@app.command("coordqa")
def coordqa_cmd(
    game: str = typer.Argument(..., help="capture | escape"),
    out_dir: Path = typer.Option(..., "--out", help="directory for the trace, questions and answers files"),
    seed: int = typer.Option(0, "--seed", help="the episode's seed"),
    agents: str = typer.Option("belief", "--agents", help="who plays (and answers): belief | baseline"),
    force: bool = typer.Option(False, "--force", help="overwrite existing files"),
    as_json: bool = typer.Option(False, "--json", help="print a summary as one JSON object on the last line"),
):
    """One episode as CoordinationQA files: the trace, its EC / ToM / JP questions (ToM gold from the checker,
    EC/JP gold stated) and the players' answers, all graded by one `belief grade` call."""
    from belief.app.runners.maze import GAMES, MazeConfig, play_episode

    if game not in GAMES:
        fail(f"game must be one of {', '.join(GAMES)} (got {game!r})")
    if out_dir.exists() and not out_dir.is_dir():
        fail(f"--out {out_dir} exists and is not a directory (it names the directory for the episode's files)")
    names = {k: out_dir / f"{game}_{seed}.{k}" for k in ("trace.jsonl", "questions.jsonl", "answers.jsonl")}
    if not force and any(p.exists() for p in names.values()):
        fail(f"{next(p for p in names.values() if p.exists())} exists (use --force)")
    try:
        r = play_episode(MazeConfig(game=game, agents=agents), seed, keep=True)
    except BeliefError as e:
        fail(str(e), 1)
    out_dir.mkdir(parents=True, exist_ok=True)
    r["_trace"].write(names["trace.jsonl"])
    names["questions.jsonl"].write_text("".join(json.dumps(q.to_json()) + "\n" for q in r["_tom"] + r["_plan"]))
    episode = episode_id(r["_trace"])
    names["answers.jsonl"].write_text("".join(json.dumps({**a, "episode": episode}) + "\n" for a in r["_answers"]))
    kinds = {k: sum(q.category == k for q in r["_plan"]) for k in ("EC", "JP")}
    summary = {"game": game, "seed": seed, "tom_questions": len(r["_tom"]), **kinds,
               "jp_agreement": r["jp_agreement"], "files": {k: str(p) for k, p in names.items()}}
    print(f"{len(r['_tom'])} ToM, {kinds['EC']} EC, {kinds['JP']} JP question(s) in {out_dir}")
    if as_json:
        print(json.dumps(summary))
