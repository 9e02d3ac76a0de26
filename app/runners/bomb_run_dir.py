"""A bomb run directory: play its episodes (on any executor, resumable) and write its flat result tables.

Files of a run (``belief run bomb --out DIR``), all written atomically, none with a timestamp or an absolute
path, so a resumed run ends byte-identical to an uninterrupted one:

* per episode, ``bomb_<seed>.trace.jsonl``, ``.answers.jsonl``, ``.questions.jsonl`` (the grading format) and
  ``.rows.jsonl`` (graded rows) (:mod:`belief.app.runners.bomb`);
* ``episodes.jsonl`` / ``episodes.csv``: one row per episode (:data:`~belief.app.runners.bomb.EPISODE_COLUMNS`);
* ``questions.jsonl`` / ``questions.csv``: one row per question, every episode
  (:data:`~belief.app.runners.bomb.QUESTION_COLUMNS`);
* ``summary.json``: the run's figures (what ``--json`` prints);
* ``manifest.json``: command, options, per-episode status and file hashes (:mod:`belief.app.runs.manifest`).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from belief.app.runners.bomb import (AGENT_KINDS, EPISODE_COLUMNS, QUESTION_COLUMNS, BombConfig, accuracy,
                                    episode_files, episode_name, play_task, team_label, tom_tables)
from belief.grading.levels import LEVELS
from belief.errors import BeliefError
from belief.files.outputs import csv_text, jsonl_text
from belief.app.runs.manifest import MAX_LISTED, ManifestError, RunManifest, open_run, play_pending

COMMAND = "run bomb"
#: every file a bomb run writes besides its manifest: --force deletes nothing else, a manifest listing another
#: name is refused
OWN_FILES = ("bomb_*.trace.jsonl", "bomb_*.answers.jsonl", "bomb_*.questions.jsonl", "bomb_*.rows.jsonl", "episodes.jsonl",
             "episodes.csv", "questions.jsonl", "questions.csv", "summary.json")


@dataclass
class BombRun:
    """A finished run: its directory, episode rows, question rows and figures."""

    directory: Path
    episodes: list
    questions: list
    figures: dict
    played: int  # episodes played by this call (the others were already finished)


def run_options(config: BombConfig, seed: int, episodes: int) -> dict:
    """The options a run is identified by (recorded in its manifest; a resume must match them)."""
    return {**config.to_json(), "seed": seed, "episodes": episodes}


def config_of(options: dict) -> BombConfig:
    return BombConfig(agents=tuple(options["agents"]), random_maps=bool(options["random_maps"]),
                      max_rounds=int(options["max_rounds"]))


def _integer(lo: int, hi: int):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


#: each option a run is identified by: (is it valid, what is expected)
OPTION_RULES = {
    "agents": (lambda v: isinstance(v, list) and len(v) == 3 and all(k in AGENT_KINDS for k in v),
               f"a list of three agent kinds ({', '.join(AGENT_KINDS)})"),
    "random_maps": (lambda v: isinstance(v, bool), "true or false"),
    "max_rounds": (_integer(1, 2**63 - 1), "an integer of at least 1"),
    "seed": (_integer(0, 2**63 - 1), "an integer of at least 0"),
    "episodes": (_integer(1, MAX_LISTED), f"an integer from 1 to {MAX_LISTED:,}"),
}


def checked_options(options: dict, where) -> dict:
    """The options of a manifest, each checked (ManifestError naming the first that is missing, of the wrong
    type or out of range, or an option the run does not take), as :func:`run_options` gives them."""
    for name, (ok, expected) in OPTION_RULES.items():
        if name not in options:
            raise ManifestError(f"{where}: options.{name} is missing")
        if not ok(options[name]):
            shown = json.dumps(options[name])
            raise ManifestError(f"{where}: options.{name} is {shown[:60]}, expected {expected}")
    extra = sorted(set(options) - set(OPTION_RULES))
    if extra:
        raise ManifestError(f"{where}: options.{extra[0][:40]} is not an option of a {COMMAND} run")
    return run_options(config_of(options), options["seed"], options["episodes"])


def episode_names(seed: int, episodes: int) -> list[tuple[str, int]]:
    """The ``(name, seed)`` of each episode of a run of `episodes` episodes from `seed`."""
    return [(episode_name(seed + i), seed + i) for i in range(episodes)]


def _task(config: BombConfig):
    return lambda entry: (config, entry.seed)


def _read_rows(path: Path) -> list[dict]:
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BeliefError(f"{path}: cannot read the episode's question rows: {e}") from None


def figures(episodes: list[dict], questions: list[dict]) -> dict:
    """Means over episodes; accuracies as fractions over all questions (unreadable answers count wrong);
    ``extra``: the ToM tables with the trivial answerers beside the agents (:func:`~belief.app.runners.bomb.tom_tables`)."""
    return {"episodes": len(episodes),
            "score": statistics.mean(e["score"] for e in episodes),
            "rounds": statistics.mean(e["rounds"] for e in episodes),
            "valid_action_rate": statistics.mean(e["valid_action_rate"] for e in episodes),
            "completed": sum(e["completed"] for e in episodes),
            "questions": len(questions),
            "unreadable": sum(q["reading"] == "none" for q in questions),
            "tom_accuracy": {lvl: accuracy(questions, lvl) for lvl in LEVELS},
            "extra": tom_tables(questions, team_label(episodes[0]["agents"].split(",")))}


def finish_run(manifest: RunManifest) -> BombRun:
    """Write the run-level tables from the finished episodes' rows and files; the manifest is complete."""
    for i, e in enumerate(manifest.episodes):
        missing = [c for c in EPISODE_COLUMNS if not isinstance(e.result, dict) or c not in e.result]
        if missing:
            raise ManifestError(f"{manifest.directory / 'manifest.json'}: episodes[{i}].result lacks {missing[0]}")
    episodes = [{c: e.result[c] for c in EPISODE_COLUMNS} for e in manifest.episodes]
    questions = [row for e in manifest.episodes
                 for row in _read_rows(manifest.directory / episode_files(e.seed)["rows"])]
    figs = figures(episodes, questions)
    manifest.finish({"episodes.jsonl": jsonl_text(episodes), "episodes.csv": csv_text(episodes, EPISODE_COLUMNS),
                     "questions.jsonl": jsonl_text(questions), "questions.csv": csv_text(questions, QUESTION_COLUMNS),
                     "summary.json": json.dumps(figs, indent=1) + "\n"})
    return BombRun(manifest.directory, episodes, questions, figs, played=0)


def open_bomb_run(out, config: BombConfig | None = None, seed: int = 0, episodes: int = 20, *,
                  force: bool = False, resume: bool = False) -> RunManifest:
    """The manifest of a new run in `out`, or with `resume` of the run there (its options, when not given: each
    checked, and its episodes must be the ones they give)."""
    if resume and config is None:
        options = checked_options(RunManifest.read(out, OWN_FILES).options, Path(out) / "manifest.json")
    else:
        options = run_options(config or BombConfig(), seed, episodes)
    names = episode_names(options["seed"], options["episodes"])
    return open_run(out, COMMAND, options, names, force=force, resume=resume, own_files=OWN_FILES)


def play_run(manifest: RunManifest, *, executor: str = "local", workers: int | None = None,
             address: str | None = None, progress: Callable[[int, dict], None] | None = None) -> BombRun:
    """Play the run's pending episodes on `executor`, then write its tables."""
    config = config_of(manifest.options)
    played = play_pending(manifest, play_task, _task(config), executor=executor, workers=workers, address=address,
                          progress=progress)
    run = finish_run(manifest)
    run.played = played
    return run


def run_bomb(out, config: BombConfig | None = None, seed: int = 0, episodes: int = 20, *, force: bool = False,
             resume: bool = False, executor: str = "local", workers: int | None = None,
             address: str | None = None) -> BombRun:
    """Library entry point: ``belief run bomb`` without the tables (see the module docstring)."""
    manifest = open_bomb_run(out, config, seed, episodes, force=force, resume=resume)
    return play_run(manifest, executor=executor, workers=workers, address=address)


__all__ = ["BombRun", "COMMAND", "OPTION_RULES", "OWN_FILES", "checked_options", "config_of", "episode_names", "figures",
           "finish_run", "open_bomb_run", "play_run", "run_bomb", "run_options"]
