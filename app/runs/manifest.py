"""A run directory's manifest: what a run is, which of its episodes are finished, and every file it wrote.

``DIR/manifest.json`` holds the command, its options (and their SHA-256), one entry per episode (name, seed,
status, the SHA-256 of each file it wrote, its plain result row and that row's SHA-256) and the run-level
outputs. It is rewritten
atomically after every finished episode, so a run killed at any moment can be resumed: finished episodes
whose files still match their hashes are kept, the others are played again, and the directory ends
byte-identical to an uninterrupted run (nothing in it carries a timestamp or an absolute path).

Rules for a directory (:func:`open_run`):

* a fresh or empty directory starts a run;
* an existing, non-empty one is refused unless ``force`` (replace the run: the files the old manifest
  lists are deleted first, never other files) or ``resume`` (continue the run its manifest describes).

A manifest is input like any other file (it may be edited, corrupt or hostile): every file name it lists
must be a plain name inside the run directory (no ``/``, ``..`` or absolute path) and, when the run states
its own file patterns (``own_files``, e.g. ``bomb_*.trace.jsonl``), match one of them; otherwise it is
refused (:class:`ManifestError`) and nothing is read, written or deleted through it. An edited manifest is
refused too, with one error naming the field: options or a finished episode's result that no longer match
their recorded SHA-256, an unknown status, a finished episode without its result, a name or seed listed twice
and, on resume (:func:`open_run`), an episode list that is not the one the run's own options give (an extra,
missing, renamed or duplicated episode is never played nor counted). ``force`` on a directory
whose manifest is unreadable or refused removes only the files matching the run's own patterns (and the
temporary files of killed writes), never another file.
"""

from __future__ import annotations

import fnmatch
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from belief.errors import BeliefError
from belief.app.runs.executor import run_tasks
from belief.files.json_input import load_json
from belief.files.outputs import OutputExistsError, atomic_write_text, remove_stale_temps, sha256_file, sha256_text

MANIFEST_NAME = "manifest.json"
FORMAT_NAME = "belief-run"
FORMAT_VERSION = 2  # 2: options_sha256 and each finished episode's result_sha256
#: the most episodes a manifest may list (as many as one command plays)
MAX_LISTED = 1_000_000
EPISODE_STATUSES = ("pending", "done")
RUN_STATUSES = ("running", "complete")


def value_sha256(value) -> str:
    """The SHA-256 of a JSON value's canonical text (sorted keys, no spaces): what the manifest records of
    the run's options and of each finished episode's result row."""
    return sha256_text(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True))


class ManifestError(BeliefError):
    """A run directory whose manifest is missing, unreadable, or belongs to another command or options."""


@dataclass
class EpisodeEntry:
    name: str
    seed: int
    status: str = "pending"  # "pending" | "done"
    files: dict = field(default_factory=dict)  # file name (relative to the run directory) -> sha256
    result: dict | None = None  # the episode's plain result row
    result_sha256: str | None = None  # value_sha256(result), recorded with it

    def to_json(self) -> dict:
        return {"name": self.name, "seed": self.seed, "status": self.status, "files": dict(self.files),
                "result": self.result, "result_sha256": self.result_sha256}


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
                "options": self.options, "options_sha256": value_sha256(self.options), "status": self.status,
                "episodes": [e.to_json() for e in self.episodes], "outputs": dict(self.outputs)}

    @classmethod
    def read(cls, directory, own_files: Sequence[str] = ()) -> "RunManifest":
        """The manifest of the run in `directory`; ManifestError when it is missing, unreadable, malformed,
        or lists a file that is not one of the run's own (see the module docstring)."""
        directory = Path(directory)
        path = directory / MANIFEST_NAME
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ManifestError(f"{directory} holds no run to resume ({MANIFEST_NAME} is missing)") from None
        except (OSError, UnicodeDecodeError) as e:
            raise ManifestError(f"{path}: unreadable manifest: {e}") from None
        data = load_json(text, f"{path}: unreadable manifest: ", ManifestError)
        if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
            raise ManifestError(f"{path}: not a belief run manifest")
        if data.get("version") != FORMAT_VERSION:
            raise ManifestError(f"{path}: unsupported manifest version {str(data.get('version'))[:20]!r}")
        listed = data.get("episodes")
        if isinstance(listed, list) and len(listed) > MAX_LISTED:
            raise ManifestError(f"{path}: episodes lists {len(listed):,} entries (a run plays at most "
                                f"{MAX_LISTED:,}); nothing was read or deleted through it")
        try:
            episodes = [EpisodeEntry(name=str(e["name"]), seed=_int(e["seed"]), status=str(e["status"]),
                                     files=_files(e.get("files")), result=e.get("result"),
                                     result_sha256=e.get("result_sha256"))
                        for e in listed]
            if not isinstance(data["options"], dict):
                raise TypeError("options must be a JSON object")
            m = cls(directory=directory, command=str(data["command"]), options=dict(data["options"]),
                    episodes=episodes, outputs=_files(data.get("outputs")), status=str(data.get("status", "running")))
        except (KeyError, TypeError, ValueError) as e:
            raise ManifestError(f"{path}: malformed manifest ({type(e).__name__}: {str(e)[:200]})") from None
        for name in m.listed_files():
            problem = name_problem(name, own_files)
            if problem:
                raise ManifestError(f"{path}: lists {name[:80]!r}, {problem}; nothing was read or deleted through "
                                    f"it")
        problem = m._edited(data.get("options_sha256"))
        if problem:
            raise ManifestError(f"{path}: {problem}; nothing was read or deleted through it")
        return m

    def _edited(self, options_sha256) -> str | None:
        """What in this manifest is not what the run recorded (see the module docstring), or None."""
        if self.status not in RUN_STATUSES:
            return f"status {self.status[:40]!r} is not one of {', '.join(RUN_STATUSES)}"
        if options_sha256 != value_sha256(self.options):
            return "options do not match their recorded options_sha256 (edited after the run started)"
        names, seeds = set(), set()
        for i, e in enumerate(self.episodes):
            where = f"episodes[{i}]"
            if e.status not in EPISODE_STATUSES:
                return f"{where}.status {e.status[:40]!r} is not one of {', '.join(EPISODE_STATUSES)}"
            if e.name in names or e.seed in seeds:
                what = f"name {e.name[:80]!r}" if e.name in names else f"seed {e.seed}"
                return f"{where}: its {what} is listed twice"
            names.add(e.name)
            seeds.add(e.seed)
            if e.status != "done":
                continue
            if not isinstance(e.result, dict):
                return f"{where}.result: a finished episode needs its result row, got {_shown(e.result)}"
            if e.result_sha256 != value_sha256(e.result):
                return f"{where}.result does not match its recorded result_sha256 (edited after the episode ended)"
        return None

    def check_episodes(self, expected: Sequence[tuple[str, int]]) -> None:
        """ManifestError unless the manifest lists exactly the episodes ``[(name, seed), ...]`` the run's own
        options give, in order (an extra, missing, renamed or duplicated entry is never played nor counted)."""
        where = self.directory / MANIFEST_NAME
        if len(self.episodes) != len(expected):
            raise ManifestError(f"{where}: episodes lists {len(self.episodes):,} entries where the run's options "
                                f"give {len(expected):,}; nothing was read or deleted through it")
        for i, (e, (name, seed)) in enumerate(zip(self.episodes, expected)):
            if (e.name, e.seed) != (name, seed):
                field_ = "name" if e.name != name else "seed"
                raise ManifestError(f"{where}: episodes[{i}].{field_} is {_shown(getattr(e, field_))} where the "
                                    f"run's options give {_shown(name if field_ == 'name' else seed)}; nothing "
                                    f"was read or deleted through it")

    def save(self) -> None:
        atomic_write_text(self.directory / MANIFEST_NAME, json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n")

    # --- state ---------------------------------------------------------------------------------
    def listed_files(self) -> list[str]:
        """Every file name this manifest lists (episodes' files, run outputs, the manifest itself)."""
        names = [n for e in self.episodes for n in e.files] + list(self.outputs) + [MANIFEST_NAME]
        return list(dict.fromkeys(names))

    def _intact(self, files: dict) -> bool:
        return all(_regular(self.directory / n) and sha256_file(self.directory / n) == h for n, h in files.items())

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
        entry.result_sha256 = value_sha256(result)
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
        """Delete every file this manifest lists (plain names inside the run directory, checked when it was
        read) and the temporary files of killed writes."""
        for fname in self.listed_files():
            if name_problem(fname, ()) is None:  # checked on reading; checked again before deleting
                (self.directory / fname).unlink(missing_ok=True)
        remove_stale_temps(self.directory)


def _shown(value) -> str:
    """A manifest value in a message, short."""
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


def _int(x) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError(f"an integer was expected, got {str(x)[:40]!r}")
    return x


def _files(x) -> dict:
    """A ``{file name: sha256}`` mapping of the manifest, checked for type (names are checked by read)."""
    if x is None:
        return {}
    if not isinstance(x, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in x.items()):
        raise ValueError("files must map file names to SHA-256 strings")
    return dict(x)


def _regular(path: Path) -> bool:
    """A regular file that is not a symbolic link (a link could lead out of the run directory)."""
    return not path.is_symlink() and path.is_file()


def name_problem(name: str, own_files: Sequence[str] = ()) -> str | None:
    """Why `name` may not be a file of a run directory, or None: it must be a plain file name (no directory
    part, no ``..``, not absolute, no NUL) and, when `own_files` patterns are given, match one of them."""
    if not name or name in (".", "..") or "\0" in name or "/" in name or (os.altsep and os.altsep in name) \
            or os.sep in name or Path(name).is_absolute() or Path(name).name != name:
        return "which is not a plain file name inside the run directory"
    if name == MANIFEST_NAME:
        return None
    if own_files and not any(fnmatch.fnmatchcase(name, p) for p in own_files):
        return f"which is not a file this run writes ({', '.join(own_files)})"
    return None


def remove_own_files(directory: Path, own_files: Sequence[str]) -> list[str]:
    """Delete the files of `directory` (not its subfolders) matching the run's own patterns, its manifest and
    the temporary files of killed writes; the names deleted. Used by ``force`` when the manifest cannot be
    trusted to say what the run wrote."""
    removed = []
    for p in sorted(directory.iterdir()):
        if p.name == MANIFEST_NAME or any(fnmatch.fnmatchcase(p.name, pat) for pat in own_files):
            if p.is_symlink() or p.is_file():
                p.unlink(missing_ok=True)
                removed.append(p.name)
    remove_stale_temps(directory)
    return removed


def _non_empty(directory: Path) -> bool:
    return directory.is_dir() and any(directory.iterdir())


def open_run(directory, command: str, options: dict, episodes: Iterable[tuple[str, int]], *,
             force: bool = False, resume: bool = False, own_files: Sequence[str] = ()) -> RunManifest:
    """The manifest of a new run in `directory` (or, with `resume`, of the run already there).

    With `resume`, `command`, `options` and `episodes` (the ``(name, seed)`` the options give) must equal the
    manifest's (ManifestError otherwise, naming the field). `own_files`:
    glob patterns of the files the run writes (besides its manifest); a manifest listing any other name is
    refused, and ``force`` on a directory whose manifest is unreadable or refused removes only files matching
    them (with no patterns given, such a directory is refused: nothing tells its run's files apart).
    """
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise OutputExistsError(f"{directory} exists and is not a directory")
    if resume:
        m = RunManifest.read(directory, own_files)
        if m.command != command:
            raise ManifestError(f"{directory} holds a {m.command[:80]!r} run, not {command!r}")
        if m.options != options:
            diff = ", ".join(f"{k}: {m.options.get(k)!r} in the run, {options.get(k)!r} now"
                             for k in sorted(set(m.options) | set(options)) if m.options.get(k) != options.get(k))
            raise ManifestError(f"{directory} was started with other options ({diff[:300]})")
        m.check_episodes(list(episodes))
        remove_stale_temps(directory)  # a killed write may have left its temporary file
        return m
    if _non_empty(directory):
        if not force:
            raise OutputExistsError(f"{directory} exists and is not empty; pass --force to replace the run in it "
                                    f"or --resume {directory} to continue it")
        if (directory / MANIFEST_NAME).exists() or (directory / MANIFEST_NAME).is_symlink():
            try:
                old = RunManifest.read(directory, own_files)
            except ManifestError as e:
                if not own_files:
                    raise ManifestError(f"{e}; cannot tell this run's files apart: empty {directory} yourself") \
                        from None
                remove_own_files(directory, own_files)
            else:
                old.remove_files()
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


__all__ = ["MANIFEST_NAME", "MAX_LISTED", "ManifestError", "EpisodeEntry", "RunManifest", "name_problem", "open_run",
           "play_pending", "remove_own_files", "value_sha256"]
