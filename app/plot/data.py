"""Read the results `belief plot` draws: bomb run directories and benchmark JSON lines, as plain rows.

Accepted inputs (the kind is detected, never passed):

* a ``belief run bomb --out DIR`` directory (or a file in it). Either the flat layout, ``questions.jsonl`` (one
  row per question: ``order``, ``template``, ``correct``, ``agent``...) with ``episodes.jsonl``, or the
  per-episode layout, ``bomb_<seed>.questions.jsonl`` and ``.answers.jsonl`` with ``summary.jsonl``, whose
  free-text answers are graded here on ``belief grade``'s path (:func:`belief.grading.report.level_question`,
  :func:`belief.grading.report.graded_row`: the same reader; unreadable counts as wrong);
* a file holding the output of a world benchmark with ``--json`` (``belief bench transport|household``,
  ``belief run blocks|hanabi|capture|escape``): the last line that is a JSON object, in the one benchmark shape
  (:mod:`belief.app.results.comparison`, checked by :func:`belief.app.results.schema.validate_bench_json`); its
  ``world`` says which.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from belief.envs.bomb.world import AGENTS
from belief.envs.bomb.tom import TEMPLATES
from belief.errors import BeliefError
from belief.files.json_input import load_json
from belief.grading.report import LEVELS, graded_row, level_question
from belief.grading.shortcuts import QUESTION_SHORTCUTS

ORDER_NAMES = dict(enumerate(LEVELS))  # 0 introspection, 1 first order, 2 second order
SELECTED = "selected"  # the panel of the selected questions (no level)
SHORTCUT_COLUMNS = QUESTION_SHORTCUTS  # the question rows' shortcut columns (the panel's, by name)


class ResultsError(BeliefError):
    """A RESULTS path `belief plot` cannot read."""


@dataclass(frozen=True)
class BombRunRows:
    """One `belief run bomb` directory: episode rows (``rounds``, ``agents``) and graded question rows."""

    path: Path
    label: str  # the team, e.g. "belief" or "belief,random,belief"
    episodes: list = field(default_factory=list)
    questions: list = field(default_factory=list)  # {"order", "template", "kind", "correct", "gold", "shortcuts"}


@dataclass(frozen=True)
class BenchSummary:
    """The JSON line of a world benchmark (`belief bench transport|household --json`, ...)."""

    path: Path
    kind: str  # the world without its version: "transport", "household", "blocks", ...
    episodes: int
    by_agent: dict  # {agent: {metric: mean, "ci95": {metric: [lo, hi]}, "n": {metric: n}, "episodes": n}}
    metrics: dict = field(default_factory=dict)  # {metric: {"higher_is_better", "unit"}}, in report order
    headline: str = ""
    tom: dict = field(default_factory=dict)  # {label: ToM table} from ``extra.tom`` (:func:`tom_tables_of`)


def read_jsonl(path: Path) -> list[dict]:
    rows = []
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ResultsError(f"{path}: cannot read: {e}") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        row = load_json(line, f"{path}:{n}: ", ResultsError)  # huge numbers, NaN, deep nesting: one error
        if not isinstance(row, dict):
            raise ResultsError(f"{path}:{n}: expected a JSON object per line")
        if "end" in row and len(row) == 1:  # a trace-style end marker
            continue
        rows.append(row)
    return rows


def _order(value, where) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value in ORDER_NAMES:
        return ORDER_NAMES[value]
    if isinstance(value, str) and value in LEVELS:
        return value
    raise ResultsError(f"{where}: unknown question order {value!r} (expected one of {', '.join(LEVELS)} or 0-2)")


def _team_label(episodes: list[dict]) -> str:
    teams = list(dict.fromkeys(_team(e) for e in episodes))
    labels = [t[0] if len(set(t)) == 1 else ",".join(t) for t in teams if t]
    return " + ".join(labels) if labels else "?"


def _team(episode: dict) -> tuple:
    agents = episode.get("agents", ())
    if isinstance(agents, dict):  # {name: kind}
        return tuple(agents[a] for a in AGENTS if a in agents) or tuple(agents.values())
    if isinstance(agents, str):
        return tuple(k.strip() for k in agents.split(",") if k.strip())
    return tuple(agents)


def _kind_of(agent: str, episode: dict | None) -> str:
    """The kind (belief, random...) of the agent named `agent` (alpha...) in `episode`'s team."""
    team = _team(episode) if episode else ()
    if agent in AGENTS and len(team) == len(AGENTS):
        return team[AGENTS.index(agent)]
    return agent  # already a kind, or a name we cannot map


def _flat_row(q: dict, where: str, episode: dict | None) -> dict:
    """A row of the flat layout: it carries its own verdict (`correct`) and, usually, the agent's `kind`."""
    missing = [k for k in ("template", "correct") if k not in q] + ([] if "level" in q or "order" in q else ["level"])
    if missing:
        raise ResultsError(f"{where}: question row lacks {', '.join(missing)}")
    kind = q.get("kind") or _kind_of(str(q.get("agent", "?")), episode)
    # the shortcuts' answers a row carries (belief.grading.shortcuts), and its gold (majority is read from them)
    extra = {"gold": _gold(q.get("gold")), "shortcuts": {s: str(q[s]) for s in SHORTCUT_COLUMNS if q.get(s) is not None}}
    if q.get("set") == "selected":  # a selected question (belief.envs.bomb.tom): no level; its own panel
        return {"order": SELECTED, "template": str(q["template"]), "kind": kind, "correct": q["correct"] is True,
                **extra}
    # the level names the panel; an older row without it carried the level's index as "order"
    return {"order": _order(q["level"] if "level" in q else q["order"], where), "template": str(q["template"]), "kind": kind,
            "correct": q["correct"] is True, **extra}


def _gold(value) -> str | None:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return None if value is None else str(value)


def _graded_row(q: dict, where: str, episode: dict | None, answers: dict) -> dict:
    """A row of the per-episode layout: the exact answer is `answer`; the agent's text is in `answers`."""
    order = _order(q.get("level"), where)
    question = level_question({**q, "answer": bool(q.get("answer"))})
    return {"order": order, "template": str(q.get("template")), "kind": _kind_of(str(q.get("asked", "?")), episode),
            "correct": graded_row(question, question.gold, answers.get(question.id))["correct"],
            "gold": _gold(bool(q.get("answer"))), "shortcuts": {}}


def _questions(directory: Path, episodes: list[dict]) -> list[dict]:
    """The run's questions.jsonl, else every bomb_<seed>.questions.jsonl (graded against its .answers.jsonl)."""
    by_seed = {e.get("seed"): e for e in episodes}
    by_name = {e.get("episode"): e for e in episodes}
    if (directory / "questions.jsonl").exists():
        files = [directory / "questions.jsonl"]
    elif list(directory.glob("bomb_*.rows.jsonl")):  # the graded rows of each episode
        files = sorted(directory.glob("bomb_*.rows.jsonl"))
    else:  # an older layout: each episode's question rows (with their exact answer) and answers
        files = sorted(directory.glob("bomb_*.questions.jsonl"))
    rows = []
    for qpath in files:
        seed_text = re.fullmatch(r"bomb_(\d+)\.(?:questions|rows)\.jsonl", qpath.name)
        file_episode = by_seed.get(int(seed_text.group(1))) if seed_text else None
        apath = qpath.with_name(qpath.name.replace(".questions.", ".answers."))
        answers = None
        for n, q in enumerate(read_jsonl(qpath), 1):
            where = f"{qpath}:{n}"
            episode = file_episode or by_name.get(q.get("episode")) or by_seed.get(q.get("seed"))
            if "correct" in q:
                rows.append(_flat_row(q, where, episode))
                continue
            if answers is None:
                answers = {a.get("id"): a.get("answer") for a in read_jsonl(apath)} if apath.exists() else {}
            rows.append(_graded_row(q, where, episode, answers))
    return rows


def load_bomb_run(directory: Path) -> BombRunRows:
    for name in ("episodes.jsonl", "summary.jsonl"):
        if (directory / name).exists():
            episodes = read_jsonl(directory / name)
            break
    else:
        raise ResultsError(f"{directory}: no episodes.jsonl or summary.jsonl (is it a `belief run bomb --out` "
                           f"directory?)")
    for e in episodes:
        if "rounds" not in e:
            raise ResultsError(f"{directory}: an episode row has no 'rounds'")
    return BombRunRows(path=directory, label=_team_label(episodes), episodes=episodes,
                   questions=_questions(directory, episodes))


def _last_json_object(path: Path) -> dict:
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ResultsError(f"{path}: cannot read: {e}") from None
    for line in reversed(lines):
        line = line.strip()
        if line.startswith("{"):
            try:
                value = load_json(line, f"{path}: the last JSON line: ", ResultsError)
            except ResultsError:
                try:
                    json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line of text that starts with "{", not JSON
                except ValueError:  # JSON with an integer Python will not read (> 4300 digits)
                    pass
                raise
            if isinstance(value, dict):
                return value
    raise ResultsError(f"{path}: no JSON object line (expected the output of `belief bench ... --json`)")


def load_bench_summary(path: Path) -> BenchSummary:
    return bench_summary(_last_json_object(path), path)


def bench_summary(summary: dict, source="benchmark") -> BenchSummary:
    """A benchmark's JSON object (what ``belief bench <world> --json`` prints) as plot input; `source`
    names it in errors."""
    from belief.app.results.schema import validate_bench_json

    path = Path(source)
    shape = validate_bench_json(summary, str(path))  # raises a BeliefError (one line) on another shape
    kind = shape.world.removesuffix("_v0")
    extra = summary.get("extra")
    return BenchSummary(path=path, kind=kind, episodes=shape.episodes, by_agent=summary["by_agent"],
                        metrics=summary["metrics"], headline=shape.headline,
                        tom=tom_tables_of(extra.get("tom") if isinstance(extra, dict) else None, str(path)))


def tom_tables_of(value, source: str = "benchmark", label: str = "") -> dict:
    """The ToM tables (:func:`belief.grading.trivial.tom_table`) in a bench's ``extra.tom``, whatever its nesting
    (one table, ``{agent kind: table}``, ``{"tom": table}``...), as ``{label: table}``; the label joins the keys
    that lead to a table ("" for a table at the top). A table whose rows are not of that shape is an error."""
    if not isinstance(value, dict):
        return {}
    if "by_type" in value:
        by_type = value["by_type"]
        if not isinstance(by_type, dict):
            raise ResultsError(f"{source}: extra.tom{'.' + label if label else ''}.by_type is not an object")
        for t, entry in by_type.items():
            where = f"{source}: extra.tom{'.' + label if label else ''}.by_type.{t}"
            if not isinstance(entry, dict) or not isinstance(entry.get("trivial_best"), (int, float)):
                raise ResultsError(f"{where}: expected an object with trivial_best (a ToM table row)")
            for a in value.get("answerers") or ():
                cell = entry.get(a)
                if cell is not None and (not isinstance(cell, dict) or not isinstance(cell.get("accuracy"), (int, float))
                                         or isinstance(cell.get("accuracy"), bool)):
                    raise ResultsError(f"{where}.{a}: expected an object with a numeric accuracy")
        return {label: value}
    tables: dict = {}
    for key, sub in value.items():
        tables.update(tom_tables_of(sub, source, f"{label}/{key}" if label else str(key)))
    return tables


def load_results(path) -> BombRunRows | BenchSummary:
    """Detect what `path` holds and read it."""
    path = Path(path)
    if not path.exists():
        raise ResultsError(f"{path}: no such file or directory")
    if path.is_dir():
        return load_bomb_run(path)
    if path.name in ("questions.jsonl", "episodes.jsonl", "summary.jsonl") or path.name.startswith("bomb_"):
        return load_bomb_run(path.parent)
    return load_bench_summary(path)


def template_order(templates) -> list[str]:
    """The bomb game's templates in their usual order, then any others alphabetically."""
    known = [t for t in TEMPLATES if t in templates]
    return known + sorted(set(templates) - set(known))


__all__ = ["BenchSummary", "BombRunRows", "ORDER_NAMES", "ResultsError", "bench_summary", "load_bench_summary",
           "load_bomb_run", "load_results", "read_jsonl", "template_order", "tom_tables_of"]
