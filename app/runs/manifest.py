"""A run directory's manifest: what a run is, which of its episodes are finished, and every file it wrote.

``DIR/manifest.json`` holds the command, its options, one entry per episode (name, seed, status, the
SHA-256 of each file it wrote, and its plain result row) and the run-level outputs. It is rewritten
atomically after every finished episode, so a run killed at any moment can be resumed: finished episodes
whose files still match their hashes are kept, the others are played again, and the directory ends
byte-identical to an uninterrupted run (nothing in it carries a timestamp or an absolute path).

Rules for a directory (:func:`open_run`):

* a fresh or empty directory starts a run;
* an existing, non-empty one is refused unless ``force`` (replace the run: the files the old manifest
  lists are deleted first, never other files) or ``resume`` (continue the run its manifest describes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from belief.errors import BeliefError
from belief.app.runs.executor import run_tasks
from belief.files.outputs import OutputExistsError, atomic_write_text, remove_stale_temps, sha256_file, sha256_text

MANIFEST_NAME = "manifest.json"
FORMAT_NAME = "belief-run"
FORMAT_VERSION = 1


class ManifestError(BeliefError):
    """A run directory whose manifest is missing, unreadable, or belongs to another command or options."""


@dataclass
class EpisodeEntry:
    name: str
    seed: int
    status: str = "pending"  # "pending" | "done"
    files: dict = field(default_factory=dict)  # file name (relative to the run directory) -> sha256
    result: dict | None = None  # the episode's plain result row

    def to_json(self) -> dict:
        return {"name": self.name, "seed": self.seed, "status": self.status, "files": dict(self.files),
                "result": self.result}


@dataclass
class RunManifest:
    directory: Path
    command: str
    options: dict
    episodes: list[EpisodeEntry]
    outputs: dict = field(default_factory=dict)  # run-level file name -> sha256
    status: str = "running"  # "running" | "complete"

    # --- JSON ----------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "command": self.command,
                "options": self.options, "status": self.status,
                "episodes": [e.to_json() for e in self.episodes], "outputs": dict(self.outputs)}

    @classmethod
    def read(cls, directory) -> "RunManifest":
        directory = Path(directory)
        path = directory / MANIFEST_NAME
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ManifestError(f"{directory} holds no run to resume ({MANIFEST_NAME} is missing)") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ManifestError(f"{path}: unreadable manifest: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
            raise ManifestError(f"{path}: not a belief run manifest")
        if data.get("version") != FORMAT_VERSION:
            raise ManifestError(f"{path}: unsupported manifest version {data.get('version')!r}")
        try:
            episodes = [EpisodeEntry(name=str(e["name"]), seed=int(e["seed"]), status=str(e["status"]),
                                     files=dict(e.get("files") or {}), result=e.get("result"))
                        for e in data["episodes"]]
            return cls(directory=directory, command=str(data["command"]), options=dict(data["options"]),
                       episodes=episodes, outputs=dict(data.get("outputs") or {}),
                       status=str(data.get("status", "running")))
        except (KeyError, TypeError, ValueError) as e:
            raise ManifestError(f"{path}: malformed manifest ({type(e).__name__}: {e})") from None

    def save(self) -> None:
        atomic_write_text(self.directory / MANIFEST_NAME, json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n")

    # --- state ---------------------------------------------------------------------------------
    def listed_files(self) -> list[str]:
        """Every file name this manifest lists (episodes' files, run outputs, the manifest itself)."""
        names = [n for e in self.episodes for n in e.files] + list(self.outputs) + [MANIFEST_NAME]
        return list(dict.fromkeys(names))

    def _intact(self, files: dict) -> bool:
        return all((self.directory / n).is_file() and sha256_file(self.directory / n) == h for n, h in files.items())

    def pending(self) -> list[EpisodeEntry]:
        """Episodes still to play: not finished, or finished but with a file missing or changed since."""
        return [e for e in self.episodes if not (e.status == "done" and self._intact(e.files))]

    def record_episode(self, name: str, files: dict, result: dict | None = None) -> None:
        """Write an episode's files (name -> text) atomically, then mark it done in the manifest."""
        entry = next((e for e in self.episodes if e.name == name), None)
        if entry is None:
            raise ManifestError(f"no episode {name!r} in this run")
        for fname, text in files.items():
            atomic_write_text(self.directory / fname, text)
        entry.files = {fname: sha256_text(text) for fname, text in files.items()}
        entry.result = result
        entry.status = "done"
        self.save()

    def finish(self, outputs: dict) -> None:
        """Write the run-level files (name -> text) atomically; the run is complete."""
        for fname, text in outputs.items():
            atomic_write_text(self.directory / fname, text)
        self.outputs = {fname: sha256_text(text) for fname, text in outputs.items()}
        self.status = "complete"
        self.save()

    def remove_files(self) -> None:
        """Delete every file this manifest lists and the temporary files of killed writes."""
        for fname in self.listed_files():
            (self.directory / fname).unlink(missing_ok=True)
        remove_stale_temps(self.directory)


def _non_empty(directory: Path) -> bool:
    return directory.is_dir() and any(directory.iterdir())


def open_run(directory, command: str, options: dict, episodes: Iterable[tuple[str, int]], *,
             force: bool = False, resume: bool = False) -> RunManifest:
    """The manifest of a new run in `directory` (or, with `resume`, of the run already there).

    With `resume`, `command` and `options` must equal the manifest's (ManifestError otherwise).
    """
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise OutputExistsError(f"{directory} exists and is not a directory")
    if resume:
        m = RunManifest.read(directory)
        if m.command != command:
            raise ManifestError(f"{directory} holds a {m.command!r} run, not {command!r}")
        if m.options != options:
            diff = ", ".join(f"{k}: {m.options.get(k)!r} in the run, {options.get(k)!r} now"
                             for k in sorted(set(m.options) | set(options)) if m.options.get(k) != options.get(k))
            raise ManifestError(f"{directory} was started with other options ({diff})")
        remove_stale_temps(directory)  # a killed write may have left its temporary file
        return m
    if _non_empty(directory):
        if not force:
            raise OutputExistsError(f"{directory} exists and is not empty; pass --force to replace the run in it "
                                    f"or --resume {directory} to continue it")
        if (directory / MANIFEST_NAME).exists():
            RunManifest.read(directory).remove_files()
    directory.mkdir(parents=True, exist_ok=True)
    m = RunManifest(directory=directory, command=command, options=dict(options),
                    episodes=[EpisodeEntry(name=n, seed=s) for n, s in episodes])
    m.save()
    return m


def play_pending(manifest: RunManifest, fn: Callable[[Any], dict], task_of: Callable[[EpisodeEntry], Any], *,
                 executor: str = "local", workers: int | None = None, address: str | None = None,
                 progress: Callable[[int, dict], None] | None = None) -> int:
    """Play the manifest's pending episodes with :func:`belief.app.runs.executor.run_tasks` and record each as it
    finishes; returns how many were played.

    ``fn(task_of(entry))`` must return ``{"name", "files": {file name: text}, "result": row}``.
    """
    pending = manifest.pending()

    def record(i: int, payload: dict) -> None:
        manifest.record_episode(payload["name"], payload["files"], payload.get("result"))
        if progress is not None:
            progress(i, payload)

    run_tasks(fn, [task_of(e) for e in pending], executor, workers, address, progress=record, keep_results=False)
    return len(pending)


__all__ = ["MANIFEST_NAME", "ManifestError", "EpisodeEntry", "RunManifest", "open_run", "play_pending"]
