"""``belief stories``: generate ToM stories with questions; ``belief eval``: put a dataset's questions to a model
(or a built-in answerer) and grade the answers against the checker (docs/evaluation.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from belief.app.cli import run_options
from belief.app.cli.app import app
from belief.app.runs.progress import progress_bar
from belief.errors import BeliefError


def _fail(message: str, code: int = 1):
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    raise typer.Exit(code)


def _people(text: str) -> tuple:
    lo, sep, hi = text.partition("-")
    try:
        pair = (int(lo), int(hi if sep else lo))
    except ValueError:
        raise typer.BadParameter(f"{text!r}: give people as N or LO-HI, e.g. 2-6") from None
    return pair


@app.command("stories")
def stories_cmd(
    n: int = typer.Option(100, "--n", min=1, max=1_000_000, help="number of stories"),
    seed: int = typer.Option(0, "--seed", min=0, help="seed of the set (story i is the same whatever --n)"),
    depth: int = typer.Option(4, "--depth", min=1, max=4, help="deepest belief order asked (1-4)"),
    phenomena: Optional[str] = typer.Option(None, "--phenomena", metavar="LIST",
                                            help="comma-separated optional actions: tell, announce, peek, "
                                            "distracted, overhear, opaque, quiet, room_move (default: all)"),
    people: str = typer.Option("2-6", "--people", metavar="LO-HI", help="people per story (2-6)"),
    per_story: int = typer.Option(2, "--per-story", min=1, max=50, help="questions per story and order template"),
    out: Path = typer.Option(..., "--out", metavar="DIR", file_okay=False, help="directory to write the set into"),
    force: bool = run_options.FORCE,
    as_json: bool = run_options.JSON,
    progress: bool = run_options.PROGRESS,
):
    """Generate ToM stories from actions (trace, plain English, questions where ToM is needed) into DIR."""
    from belief.app.evaluation.stories_dir import config_options, write_story_set
    from belief.stories.generator import FEATURES, StoryConfig
    from belief.stories.questions import generate_set

    try:
        features = FEATURES if phenomena is None else tuple(p.strip() for p in phenomena.split(",") if p.strip())
        config = StoryConfig(depth=depth, people=_people(people), features=features)
        with progress_bar("generating stories", total=n, enabled=progress) as bar:
            story_set = generate_set(n, seed, config, per_story, progress=lambda k: bar.advance())
        manifest = write_story_set(story_set, out, config_options(config, n, seed, per_story), force)
    except (BeliefError, OSError) as e:
        _fail(str(e))
    counts = manifest["counts"]
    if as_json:  # one JSON line and nothing else on stdout
        print(json.dumps({"out": str(out), "stories": manifest["stories"], "questions": manifest["questions"],
                          "counts": counts}))
        return
    print(f"{manifest['stories']} stories, {manifest['questions']} questions in {out}")
    for key in ("order", "phenomenon"):
        print(f"  by {key}: " + ", ".join(f"{k} {v}" for k, v in counts[key].items()))


def _pct(score) -> str:
    a = score.get("accuracy")
    if a is None:
        return "n/a"
    lo, hi = score["ci95"]
    return f"{a:.3f} [{lo:.2f},{hi:.2f}]"


def _print_summary(summary: dict, timing: dict, model: str) -> None:
    from rich.console import Console
    from rich.table import Table

    from belief.app.evaluation.baselines import BASELINES

    console = Console(highlight=False, soft_wrap=True)
    console.width = max(console.width, 120)  # the table is wide: a pipe or a file gets 120 columns
    t = Table(title=f"{model} on {summary['dataset']} ({summary['questions']} questions; 95% intervals)")
    t.add_column("questions", no_wrap=True)
    t.add_column("n", justify="right")
    t.add_column(model, justify="right", no_wrap=True)
    for name in BASELINES:
        t.add_column(name, justify="right", no_wrap=True)
    base = summary["baselines"]

    def add(label, score, key=None, group=None, end=False):
        cells = [base[name] if key is None else base[name][f"by_{key}"].get(group, {}) for name in BASELINES]
        t.add_row(label, str(score["n"] if "n" in score else summary["questions"]), _pct(score),
                  *[f"{c['accuracy']:.3f}" if c.get("accuracy") is not None else "-" for c in cells], end_section=end)

    overall = {"accuracy": summary["accuracy"], "ci95": summary["ci95"], "n": summary["questions"]}
    add("all", overall, end=True)
    from belief.app.evaluation.harness import BREAKDOWNS
    for key in BREAKDOWNS:
        groups = summary[f"by_{key}"]
        for i, (g, score) in enumerate(groups.items()):
            add(f"{key} {g}", score, key, g, end=i == len(groups) - 1)
    console.print(t)
    tokens = summary["tokens"]
    console.print(f"unreadable answers: {summary['unreadable']} (counted wrong); failed requests: {summary['errors']}; "
                  f"tokens: {tokens['prompt']} prompt, {tokens['completion']} completion")
    if timing.get("requests"):
        console.print(f"latency: {timing['requests']} requests, mean {timing['mean']:.3f} s, median "
                      f"{timing['median']:.3f} s, p95 {timing['p95']:.3f} s")
    tracker = summary.get("tracker")
    if tracker:
        def frac(x):
            return "n/a" if x is None else f"{x:.3f}"
        console.print(f"translation: {tracker['matched']} of {tracker['events_gold']} gold events matched, precision "
                      f"{frac(tracker['precision'])}, recall {frac(tracker['recall'])}; {tracker['untranslated']} "
                      f"sentence(s) not translated (reported, never guessed)")
        for u in tracker["untranslated_sentences"][:10]:
            console.print(f"  {u['episode']} sentence {u['sentence']}: {u['text']!r}: {'; '.join(u['problems'])}")
    pair = summary.get("paired")
    if pair:
        lo, hi = pair["difference_ci95"]
        console.print(f"paired on {pair['questions']} questions: tracker {pair['tracker']:.3f}, direct "
                      f"{pair['direct']:.3f}, difference {pair['difference']:+.3f} [{lo:+.3f},{hi:+.3f}]; both right "
                      f"{pair['both_right']}, tracker only {pair['tracker_only']}, direct only {pair['direct_only']}, "
                      f"both wrong {pair['both_wrong']}")
    labels = summary.get("labels")
    if labels:
        console.print(f"released labels: {_pct(labels['accuracy_vs_labels'])} against the labels, "
                      f"{_pct(labels['accuracy_vs_truth'])} against the exact truth; the label differs from the "
                      f"truth on {labels['label_differs_from_truth']} of {labels['questions']} questions"
                      + (": " + ", ".join(labels["differ"][:10]) + (" ..." if len(labels["differ"]) > 10 else "")
                         if labels["differ"] else ""))


@app.command("eval")
def eval_cmd(
    dataset: Path = typer.Argument(..., help="a stories directory (belief stories --out), a ToMi .txt file, a Hi-ToM "
                                   ".json/.jsonl file or tree, or a trace (with --questions)"),
    questions: Optional[Path] = typer.Option(None, "--questions", help="questions JSONL of a trace DATASET"),
    text: Optional[Path] = typer.Option(None, "--text", help="the story text of a trace DATASET (default: its "
                                        "events described)"),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint, e.g. "
                                           "http://127.0.0.1:8080/v1 (or BELIEF_LLM_BASE_URL)"),
    model: Optional[str] = typer.Option(None, "--model", help="model name at the endpoint (or BELIEF_LLM_MODEL); "
                                        "without an endpoint a built-in answerer: checker, reality, as_self, "
                                        "majority, public_record"),
    config: Optional[Path] = typer.Option(None, "--config", help="LLM config file (TOML or JSON)"),
    mode: str = typer.Option("direct", "--mode", help="direct: the model answers from the story; tracker: the model "
                             "translates each sentence into checked trace events and the checker answers "
                             "(--model rules: the rule translator, offline)"),
    paired: Optional[Path] = typer.Option(None, "--paired", metavar="DIR", file_okay=False,
                                          help="tracker mode: also compare with this direct-mode run directory "
                                          "on the same questions"),
    out: Optional[Path] = typer.Option(None, "--out", metavar="DIR", file_okay=False,
                                       help="run directory: manifest, journal, results.jsonl/.csv, summary.json"),
    resume: bool = typer.Option(False, "--resume", help="finish the run in --out DIR (asks only what is missing)"),
    force: bool = run_options.FORCE,
    concurrency: int = typer.Option(4, "--concurrency", min=1, max=256, help="requests in flight at once"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="seconds per request attempt"),
    max_retries: Optional[int] = typer.Option(None, "--max-retries", min=0, max=10, help="retries per request"),
    cache: Optional[Path] = typer.Option(None, "--cache", help="SQLite file caching responses across runs"),
    policy: Optional[str] = typer.Option(None, "--policy", help="trust policy of the checker (default: the "
                                         "dataset's; Hi-ToM: hitom)"),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="only the first N questions"),
    as_json: bool = run_options.JSON,
    progress: bool = run_options.PROGRESS,
):
    """Put a dataset's questions to a model (or a built-in answerer) and grade the answers against the checker,
    beside the shortcut answerers and the checker."""
    from belief.app.evaluation.baselines import BASELINES
    from belief.app.evaluation.datasets import load_items
    from belief.app.evaluation.harness import (FORMAT, MODES, EvalError, builtin_answerer, evaluate,
                                               evaluate_tracker, fingerprint, llm_answerer, open_run_dir)
    from belief.app.evaluation.tracker import llm_translator, rules_translator

    try:
        if mode not in MODES:
            raise EvalError(f"--mode must be one of {', '.join(MODES)}, got {mode!r}")
        if resume and out is None:
            raise EvalError("--resume needs the run directory: --out DIR")
        kind, items = load_items(dataset, questions, policy, text)
        if limit is not None:
            items = items[:limit]
        builtin_names = ("rules",) if mode == "tracker" else BASELINES
        if paired is not None and mode != "tracker":
            raise EvalError("--paired compares tracker mode with a direct run: use it with --mode tracker")
        if base_url is None and model in builtin_names:
            answer = builtin_answerer(model, items) if mode == "direct" else rules_translator
            name, endpoint = model, None
        else:
            from belief.llm.client import LLMClient
            from belief.llm.config import LLMConfig

            cfg = LLMConfig.resolve(config_path=config, base_url=base_url, model=model, timeout=timeout,
                                    max_retries=max_retries, cache_path=str(cache) if cache else None)
            if not cfg.configured:
                raise EvalError("no model endpoint configured: pass --base-url URL and --model NAME (or set "
                                "BELIEF_LLM_BASE_URL and BELIEF_LLM_MODEL), or use a built-in "
                                + ("translator that needs no network: --model rules" if mode == "tracker" else
                                   "answerer that needs no network: --model " + "|".join(BASELINES)))
            client = LLMClient(cfg)
            answer = llm_translator(client) if mode == "tracker" else llm_answerer(client)
            name, endpoint = cfg.model, cfg.base_url
        run = None
        if out is not None:
            manifest = {"format": FORMAT, "command": "belief eval", "dataset": str(dataset), "kind": kind,
                        "model": name, "mode": mode, "base_url": endpoint, "questions": len(items),
                        "fingerprint": fingerprint(items), "status": "running"}
            run = open_run_dir(out, manifest, resume=resume, force=force)
        if mode == "tracker":
            stories = len({it.episode for it in items})
            with progress_bar(f"{name} translating stories", total=stories, enabled=progress) as bar:
                result = evaluate_tracker(items, answer, dataset=str(dataset), kind=kind, model=name, run=run,
                                          concurrency=concurrency, paired=paired, progress=lambda: bar.advance())
        else:
            with progress_bar(f"asking {name}", total=len(items), enabled=progress) as bar:
                result = evaluate(items, answer, dataset=str(dataset), kind=kind, model=name, mode=mode, run=run,
                                  concurrency=concurrency, progress=lambda: bar.advance())
    except (BeliefError, OSError) as e:
        _fail(str(e))
    if as_json:  # one JSON line and nothing else on stdout, as every --json
        print(json.dumps({**result.summary, "latency_s": result.timing, "out": str(out) if out else None}))
        return
    _print_summary(result.summary, result.timing, name)
    if out is not None:
        print(f"{len(result.rows)} graded rows in {out / 'results.jsonl'} and {out / 'results.csv'}")
