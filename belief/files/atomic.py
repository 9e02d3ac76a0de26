"""Atomic file writes: a temporary file in the target's folder, flushed and fsynced, then renamed over the
target (``os.replace``), so a reader, or a process killed with ``kill -9``, sees the old file or the new one,
never half of one. (Separate from :mod:`belief.files.outputs` so that :mod:`belief.truth.trace` can use it.)"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TEMP_SUFFIX = ".belief-tmp"  # the temporary files of atomic writes (left behind only by a killed process)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write `data` to `path` through a temporary file and a rename (the folder must exist).

    The file gets the permissions a plain ``open(path, "w")`` would give (0666 less the umask), not the
    owner-only 0600 of a temporary file.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), 0o666 & ~_umask())
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))


def remove_stale_temps(directory: str | os.PathLike[str]) -> None:
    """Delete the temporary files that killed atomic writes left in `directory` (only ours: TEMP_SUFFIX)."""
    for tmp in Path(directory).glob(f".*{TEMP_SUFFIX}"):
        tmp.unlink(missing_ok=True)


__all__ = ["TEMP_SUFFIX", "atomic_write_bytes", "atomic_write_text", "remove_stale_temps"]
