"""The optional compiled build: ``BELIEF_COMPILE=1`` compiles the replay (belief/truth/index.py, where an append
spends most of its time) to C with mypyc; appends take about 0.7x the time (docs/benchmarks.md). Everything else
about the package is in pyproject.toml; without BELIEF_COMPILE this adds nothing and the package is pure Python.

    pip install mypy "setuptools>=77" wheel
    BELIEF_COMPILE=1 pip install --no-build-isolation .

Not with ``pip install -e``: the compiled module would sit beside its source and hide later edits of it.
"""

import os

from setuptools import setup

#: the files compiled: the replay, which every append runs (its classes are mypyc's native classes)
COMPILED = ["belief/truth/index.py"]


def ext_modules() -> list:
    flag = os.environ.get("BELIEF_COMPILE", "").strip().lower()
    if flag in ("", "0", "false", "no"):
        return []
    if flag not in ("1", "true", "yes"):
        raise SystemExit(f"BELIEF_COMPILE={flag!r}: expected 1 (compile the replay with mypyc) or 0 (pure Python)")
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        raise SystemExit("BELIEF_COMPILE=1 needs mypy (it brings mypyc) and a C compiler where the package is "
                         "built: pip install mypy 'setuptools>=77' wheel, then "
                         "BELIEF_COMPILE=1 pip install --no-build-isolation .") from exc
    # the modules it imports are not read (their names are untyped to it): 25 s to build instead of 95, and the
    # replay runs as fast (docs/benchmarks.md)
    return mypycify(["--follow-imports=skip", *COMPILED], opt_level="3")


setup(ext_modules=ext_modules())
