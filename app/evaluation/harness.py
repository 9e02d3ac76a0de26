"""``belief eval``: every question of a dataset put to a model (or a built-in answerer), read by the one reader,
graded against the checker, beside the shortcut answerers and the exact checker (the ceiling).

A run directory (``--out DIR``) is resumable::

    DIR/manifest.json    what was asked: dataset, model, mode, options, the items' fingerprint, status
    DIR/journal.jsonl    one line per answered question, appended and fsynced as answers come back
    DIR/results.jsonl    one graded row per question, in dataset order (written at the end)
    DIR/results.csv      the same rows
    DIR/summary.json     accuracy per order, phenomenon and template with 95% intervals, the baselines, tokens
    DIR/timing.json      latency (seconds per request): the one file that differs between two runs

``--resume DIR`` reads the journal (a line cut by a kill is dropped), asks only what is missing (and what
failed before), and writes the same results: results.jsonl, results.csv and summary.json are
byte-identical to an uninterrupted run's (nothing in them carries a time or a path).
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

from belief.app.evaluation.baselines import BASELINES, answerers
from belief.app.evaluation.datasets import Item
from belief.app.evaluation.tracker import (StoryTranslation, Translate, event_scores, setting, tracker_answer,
                                           translate_story)
from belief.errors import BeliefError
from belief.files.atomic import atomic_write_text
from belief.files.outputs import csv_text, jsonl_text
from belief.grading.report import graded_row
from belief.grading.stats import paired_diff_ci95, wilson_ci95
from belief.llm.errors import LLMError, one_line

FORMAT = "belief-eval"
MODES = ("direct", "tracker")
SYSTEM = ("You answer questions about a short story. Read it carefully: people only know what they saw or "
          "were told. Give the answer first (a place, or yes or no), then at most one short sentence of "
          "explanation.")
RESULT_COLUMNS = ("episode", "id", "order", "template", "phenomenon", "question", "gold", "label", "answer",
                  "reading", "correct", "correct_label", "error", "prompt_tokens", "completion_tokens")
BREAKDOWNS = ("order", "phenomenon", "template")


class EvalError(BeliefError):
    """An evaluation that cannot run (no endpoint, a run directory of another evaluation, ...)."""


def messages_for(item: Item) -> list[dict]:
    """The chat messages of one question in direct mode."""
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"Story:\n{item.text.strip()}\n\nQuestion: {item.prompt_question}\nAnswer:"}]


@dataclass
class Answer:
    key: str
    answer: Optional[str]
    error: Optional[str] = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0

    def to_json(self) -> dict:
        return {"key": self.key, "answer": self.answer, "error": self.error, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "latency_s": round(self.latency_s, 4)}


def builtin_answerer(name: str, items: list[Item]) -> Callable[[Item], Answer]:
    fn = answerers(items)[name]
    return lambda item: Answer(item.key, fn(item))


def llm_answerer(client) -> Callable[[Item], Answer]:
    """Ask the model through :class:`belief.llm.client.LLMClient` (cache, bounded retries); a failure is the
    item's error, never the run's end."""

    def ask(item: Item) -> Answer:
        start = time.perf_counter()
        try:
            got = client.chat(messages_for(item))
        except LLMError as e:
            return Answer(item.key, None, error=one_line(e), latency_s=time.perf_counter() - start)
        usage = got.usage or {}
        return Answer(item.key, got.text, prompt_tokens=int(usage.get("prompt_tokens") or 0),
                      completion_tokens=int(usage.get("completion_tokens") or 0),
                      latency_s=time.perf_counter() - start)

    return ask


def fingerprint(items: list[Item]) -> str:
    h = hashlib.sha256()
    for it in items:
        h.update(json.dumps([it.key, it.prompt_question, list(it.gold), it.text], sort_keys=True).encode())
    return h.hexdigest()


# --- the run directory -------------------------------------------------------------------------------------
@dataclass
class RunDir:
    path: Path
    manifest: dict
    done: dict = field(default_factory=dict)  # key -> Answer (from the journal)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def journal(self) -> Path:
        return self.path / "journal.jsonl"

    def record(self, answer) -> None:
        """Append one answer (or a story's translation) to the journal, flushed and fsynced (a kill loses at
        most the line being written)."""
        line = json.dumps(answer.to_json(), sort_keys=True) + "\n"
        with self._lock:
            with open(self.journal, "a", encoding="utf-8") as f:
                f.write(line)
                f.flush()
                os.fsync(f.fileno())
            self.done[answer.to_json()["key"]] = answer

    def save_manifest(self) -> None:
        atomic_write_text(self.path / "manifest.json", json.dumps(self.manifest, indent=1, sort_keys=True) + "\n")


OUTPUTS = ("manifest.json", "journal.jsonl", "results.jsonl", "results.csv", "summary.json", "timing.json")


def _read_journal(path: Path) -> dict:
    """The journal's entries by key: answers (direct mode) and story translations (tracker mode); a line cut
    by a kill and failed requests are left out (asked again)."""
    out: dict = {}
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            d = json.loads(line)
            if str(d["key"]).startswith("story:"):
                entry = StoryTranslation.from_json(d)
            else:
                entry = Answer(d["key"], d.get("answer"), d.get("error"), int(d.get("prompt_tokens") or 0),
                               int(d.get("completion_tokens") or 0), float(d.get("latency_s") or 0.0))
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            continue  # a line cut by a kill
        if entry.error is None:
            out[d["key"]] = entry
    return out


def open_run_dir(out: Path, manifest: dict, *, resume: bool, force: bool) -> RunDir:
    """A fresh run directory, or the one to resume (its manifest must describe the same evaluation)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise EvalError(f"{out} is a file; --out names a directory")
    old_path = out / "manifest.json"
    if resume:
        if not old_path.is_file():
            raise EvalError(f"{out}: nothing to resume (no manifest.json)")
        try:
            old = json.loads(old_path.read_text(encoding="utf-8"))
        except ValueError:
            raise EvalError(f"{out}/manifest.json is not JSON") from None
        if old.get("format") != FORMAT:
            raise EvalError(f"{out} is not a belief eval run directory")
        for key in ("dataset", "fingerprint", "model", "mode", "base_url"):
            if old.get(key) != manifest.get(key):
                raise EvalError(f"{out} was a run with {key} {old.get(key)!r}, not {manifest.get(key)!r}: resume "
                                f"it with the same dataset and options, or start a new --out")
        run = RunDir(out, manifest, _read_journal(out / "journal.jsonl"))
        # rewrite the journal without cut lines or failures (they are asked again)
        atomic_write_text(run.journal, "".join(json.dumps(a.to_json(), sort_keys=True) + "\n" for a in run.done.values()))
        return run
    if out.is_dir() and any(out.iterdir()):
        if not force:
            raise EvalError(f"{out} is not empty; pass --resume to finish that run or --force to start over")
        for name in OUTPUTS:
            (out / name).unlink(missing_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    run = RunDir(out, manifest)
    run.save_manifest()
    return run


# --- grading and the table ---------------------------------------------------------------------------------
def _score(rows: list[dict], key: str = "correct") -> dict:
    n = len(rows)
    right = sum(bool(r[key]) for r in rows)
    lo, hi = wilson_ci95(right, n) if n else (None, None)
    return {"accuracy": right / n if n else None, "ci95": [lo, hi], "n": n, "correct": right}


def _groups(rows: list[dict], key: str) -> dict:
    out: dict = {}
    for r in rows:
        out.setdefault(str(r[key]) if r[key] is not None else "-", []).append(r)
    return dict(sorted(out.items()))


def grade_item(item: Item, text: Optional[str]) -> dict:
    row = graded_row(item.question, item.gold, text, item.candidates, item.episode)
    return {"episode": item.episode, "id": item.question.id, "order": item.order, "template": item.question.template,
            "phenomenon": item.phenomenon, "question": item.prompt_question, "gold": row["gold"], "label": item.label,
            "answer": text, "reading": row["reading"], "correct": row["correct"],
            "correct_label": (row["reading"] == item.label) if item.label is not None else None}


def summarize(items: list[Item], rows: list[dict], answers: dict, dataset: str, kind: str, model: str,
              mode: str) -> dict:
    """The summary: the model's accuracy (overall and per breakdown, 95% Wilson intervals), unreadable and
    failed answers, tokens, and every baseline's accuracy on the same questions."""
    base = answerers(items)
    baseline_rows = {name: [grade_item(it, base[name](it)) for it in items] for name in BASELINES}
    s: dict = {"dataset": dataset, "kind": kind, "model": model, "mode": mode, "questions": len(rows),
               **{k: v for k, v in _score(rows).items() if k != "n"},
               "unreadable": sum(r["reading"] == "unreadable" for r in rows),
               "errors": sum(r["error"] is not None for r in rows),
               "tokens": {"prompt": sum(a.prompt_tokens for a in answers.values()),
                          "completion": sum(a.completion_tokens for a in answers.values())}}
    for key in BREAKDOWNS:
        s[f"by_{key}"] = {g: _score(v) for g, v in _groups(rows, key).items()}
    s["baselines"] = {}
    for name, brows in baseline_rows.items():
        entry = {k: v for k, v in _score(brows).items() if k != "n"}
        for key in BREAKDOWNS:
            entry[f"by_{key}"] = {g: _score(v) for g, v in _groups(brows, key).items()}
        s["baselines"][name] = entry
    labelled = [r for r in rows if r["label"] is not None]
    if labelled:
        differ = [f"{r['episode']}/{r['id']}" for r in labelled if r["label"] not in r["gold"].split("|")]
        s["labels"] = {"questions": len(labelled), "accuracy_vs_labels": _score(labelled, "correct_label"),
                       "accuracy_vs_truth": _score(labelled), "label_differs_from_truth": len(differ),
                       "differ": differ}
    return s


def latency(answers: dict) -> dict:
    return latency_of(a.latency_s for a in answers.values())


def latency_of(seconds: Iterable[float]) -> dict:
    """Requests, mean, median and 95th percentile of the request times (``timing.json``)."""
    asked = sorted(x for x in seconds if x > 0)
    if not asked:
        return {"requests": 0}
    p95 = asked[min(len(asked) - 1, int(round(0.95 * (len(asked) - 1))))]
    return {"requests": len(asked), "mean": statistics.fmean(asked), "median": statistics.median(asked), "p95": p95}


@dataclass
class EvalRun:
    summary: dict
    rows: list
    timing: dict


def _run_pending(units: dict, work: Callable, run: Optional[RunDir], concurrency: int,
                 progress: Optional[Callable[[], None]]) -> dict:
    """``work(unit)`` for every unit (by journal key) the run has not done, ``concurrency`` at a time; each
    result is journaled as it comes. Returns every key's result."""
    done: dict = dict(run.done) if run is not None else {}
    pending = [u for k, u in units.items() if k not in done]
    for _ in range(len(units) - len(pending)):
        if progress:
            progress()

    def finished(result):
        if run is not None:
            run.record(result)
        done[result.to_json()["key"]] = result
        if progress:
            progress()

    if concurrency <= 1:
        for u in pending:
            finished(work(u))
    else:
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            for f in as_completed([pool.submit(work, u) for u in pending]):
                finished(f.result())
    return done


def evaluate(items: list[Item], answer: Callable[[Item], Answer], *, dataset: str, kind: str, model: str,
             mode: str, run: Optional[RunDir] = None, concurrency: int = 1,
             progress: Optional[Callable[[], None]] = None) -> EvalRun:
    """Answer every item (``concurrency`` at a time; the ones ``run`` has already are not asked again), grade,
    summarize; write the results into ``run``'s directory when given."""
    done = _run_pending({it.key: it for it in items}, answer, run, concurrency, progress)
    rows = []
    for it in items:
        a = done[it.key]
        row = grade_item(it, a.answer)
        row.update(error=a.error, prompt_tokens=a.prompt_tokens, completion_tokens=a.completion_tokens)
        rows.append(row)
    summary = summarize(items, rows, {it.key: done[it.key] for it in items}, dataset, kind, model, mode)
    timing = latency(done)
    if run is not None:
        _write(run, rows, summary, timing)
    return EvalRun(summary, rows, timing)


def evaluate_tracker(items: list[Item], translate: Translate, *, dataset: str, kind: str, model: str,
                     run: Optional[RunDir] = None, concurrency: int = 1, paired: Optional[Path] = None,
                     progress: Optional[Callable[[], None]] = None) -> EvalRun:
    """Tracker mode: translate each story through the checked path (``concurrency`` stories at a time), answer
    its questions from the translated trace, grade; event precision / recall against the gold traces; with
    ``paired`` (a direct-mode run directory on the same dataset), both modes on the same questions."""
    stories: dict = {}
    for it in items:
        stories.setdefault(it.episode, it)
    done = _run_pending({f"story:{ep}": it for ep, it in stories.items()},
                        lambda it: translate_story(it.episode, it.text, translate, meta=setting(it.trace)), run,
                        concurrency, progress)
    translations = {ep: done[f"story:{ep}"] for ep in stories}
    rows = []
    for it in items:
        t = translations[it.episode]
        row = grade_item(it, tracker_answer(it, t))
        row.update(error=t.error, prompt_tokens=0, completion_tokens=0)
        rows.append(row)
    answers = {ep: Answer(ep, None, prompt_tokens=t.prompt_tokens, completion_tokens=t.completion_tokens)
               for ep, t in translations.items()}
    summary = summarize(items, rows, answers, dataset, kind, model, "tracker")
    gold = [(translations[ep].events, it.trace if it.trace is not None else it.truth.events)
            for ep, it in stories.items()]
    untranslated = [(ep, n, sentence, problems) for ep, t in translations.items()
                    for n, sentence, problems in t.untranslated]
    summary["tracker"] = {"stories": len(stories), **event_scores(gold), "untranslated": len(untranslated),
                          "untranslated_sentences": [{"episode": ep, "sentence": n, "text": text,
                                                      "problems": list(p)[:3]} for ep, n, text, p in untranslated[:50]]}
    if paired is not None:
        summary["paired"] = paired_table(rows, paired)
    timing = latency_of(x for t in translations.values() for x in t.latency_s)
    if run is not None:
        _write(run, rows, summary, timing)
    return EvalRun(summary, rows, timing)


def paired_table(rows: list[dict], direct_dir: Path) -> dict:
    """Tracker vs direct on the questions both answered: accuracies, the four cells and the paired difference."""
    path = Path(direct_dir) / "results.jsonl"
    if not path.is_file():
        raise EvalError(f"--paired {direct_dir}: no results.jsonl (a finished direct-mode run directory)")
    direct = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        direct[(d["episode"], d["id"])] = bool(d["correct"])
    both = [(bool(r["correct"]), direct[(r["episode"], r["id"])]) for r in rows if (r["episode"], r["id"]) in direct]
    if not both:
        raise EvalError(f"--paired {direct_dir}: no question in common with this dataset")
    n = len(both)
    diff, (lo, hi) = paired_diff_ci95([float(a) for a, _ in both], [float(b) for _, b in both])
    return {"questions": n, "tracker": sum(a for a, _ in both) / n, "direct": sum(b for _, b in both) / n,
            "both_right": sum(a and b for a, b in both), "tracker_only": sum(a and not b for a, b in both),
            "direct_only": sum(b and not a for a, b in both), "both_wrong": sum(not a and not b for a, b in both),
            "difference": diff, "difference_ci95": [lo, hi]}


def _write(run: RunDir, rows: list, summary: dict, timing: dict) -> None:
    atomic_write_text(run.path / "results.jsonl", jsonl_text(rows))
    atomic_write_text(run.path / "results.csv", csv_text(rows, RESULT_COLUMNS))
    atomic_write_text(run.path / "summary.json", json.dumps(summary, indent=1, sort_keys=True) + "\n")
    atomic_write_text(run.path / "timing.json", json.dumps(timing, indent=1, sort_keys=True) + "\n")
    run.manifest["status"] = "done"
    run.save_manifest()


__all__ = ["evaluate", "evaluate_tracker", "paired_table", "open_run_dir", "builtin_answerer", "llm_answerer", "messages_for", "fingerprint",
           "EvalError", "EvalRun", "RunDir", "MODES", "RESULT_COLUMNS", "FORMAT"]
