"""Start-up cost of the command line (`belief bench cli`): CPU seconds of ``belief --help`` against a yardstick,
``python -c "import pydantic, lark"`` (two of the core's own imports), as one JSON object.

Each command runs in a fresh interpreter, the two in turn (A B A B ...) so a machine that speeds up or slows
down during the call moves both; a run's CPU is the user + system time the operating system accounts to the
finished child (``resource.getrusage(RUSAGE_CHILDREN)``, which counts the processes it waited for). The
figures are medians over the runs, the ratio the median of the pairwise ratios.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys

HELP = (sys.executable, "-m", "belief", "--help")
BASELINE = (sys.executable, "-c", "import pydantic, lark")


def child_cpu_seconds(command) -> float:
    """User + system CPU seconds of one run of `command` (its output thrown away); RuntimeError if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_cli(runs: int = 7, warmup: int = 1, progress=None) -> dict:
    """Median CPU seconds of ``belief --help`` and of the yardstick over `runs` pairs (after `warmup` pairs
    not counted), and the median of their ratios; `progress()` is called after each pair."""
    helps, bases = [], []
    for i in range(warmup + runs):
        h, b = child_cpu_seconds(HELP), child_cpu_seconds(BASELINE)
        if i >= warmup:
            helps.append(h)
            bases.append(b)
        if progress is not None:
            progress()
    return {"help_cpu_s": round(statistics.median(helps), 4), "baseline_cpu_s": round(statistics.median(bases), 4),
            "ratio": round(statistics.median(h / b for h, b in zip(helps, bases) if b > 0), 2), "runs": runs,
            "help_command": "belief --help", "baseline_command": 'python -c "import pydantic, lark"'}
