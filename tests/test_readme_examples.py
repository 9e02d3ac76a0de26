"""The README's examples run as written, in a temporary directory with the installed package, offline.

* every ```python block runs on its own (each is self-contained, imports included);
* every ```bash block whose first command starts with ``belief `` (or ``$ belief``) runs with ``bash -e``,
  unless it carries the marker ``not run by the README test`` (blocks needing an LLM server; keep them few);
* every ```console block is a transcript: each ``$ command`` runs and prints exactly the lines below it;
* the ```lisp declaration example loads and type-checks;
* the README links only to files inside the repository.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from belief import examples
from belief.truth.checker import check
from belief.logic.scenario import load_scenario
from belief.truth.trace import Trace

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")
NOT_RUN = "not run by the README test"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _blocks(language: str) -> list[tuple[int, str]]:
    """(line number, body) of every fenced block in that language."""
    return [(TEXT[:m.start()].count("\n") + 1, m.group(2)) for m in FENCE.finditer(TEXT) if m.group(1) == language]


def _first_command(body: str) -> str:
    return next((ln.strip() for ln in body.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")


def _runs_belief(body: str) -> bool:
    first = _first_command(body)
    return first.startswith("belief ") or first.startswith("$ belief")


def _offline_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "BELIEF_"))}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["COLUMNS"] = "120"
    return env


def _run(args, cwd, timeout=300, **kw):
    return subprocess.run(args, cwd=cwd, env=_offline_env(), capture_output=True, text=True, timeout=timeout, **kw)


def _ids(blocks):
    return [f"line{n}" for n, _ in blocks]


PYTHON = _blocks("python")
BASH = [(n, b) for n, b in _blocks("bash") if _runs_belief(b)]
CONSOLE = _blocks("console")


def test_the_readme_has_examples_of_each_kind():
    assert len(PYTHON) >= 4 and len(BASH) >= 2 and CONSOLE
    marked = [b for _, b in _blocks("bash") if NOT_RUN in b]
    assert len(marked) <= 3, "keep the blocks the test cannot run few"


@pytest.mark.parametrize("line,body", PYTHON, ids=_ids(PYTHON))
def test_python_block_runs_as_written(line, body, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(body, encoding="utf-8")
    r = _run([sys.executable, str(script)], tmp_path)
    assert r.returncode == 0, f"README.md:{line}: the python block fails:\n{r.stderr[-3000:]}"


@pytest.mark.parametrize("line,body", BASH, ids=_ids(BASH))
def test_bash_block_runs_as_written(line, body, tmp_path):
    if NOT_RUN in body:
        pytest.skip(f"README.md:{line} is marked '{NOT_RUN}'")
    script = "\n".join(re.sub(r"^\$ ", "", ln) for ln in body.splitlines())
    r = _run(["bash", "-e", "-o", "pipefail", "-c", script], tmp_path)
    assert r.returncode == 0, f"README.md:{line}: the bash block fails:\n{r.stdout[-1500:]}\n{r.stderr[-1500:]}"


def _transcript(body: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a console block."""
    pairs = []
    for ln in body.splitlines():
        if ln.startswith("$ "):
            pairs.append((ln[2:], []))
        elif pairs:
            pairs[-1][1].append(ln)
    return [(cmd, "\n".join(out).rstrip()) for cmd, out in pairs]


@pytest.mark.parametrize("line,body", CONSOLE, ids=_ids(CONSOLE))
def test_console_transcript_prints_what_it_shows(line, body, tmp_path):
    pairs = _transcript(body)
    assert pairs, f"README.md:{line}: a console block must show '$ command' lines"
    for cmd, expected in pairs:
        r = _run(["bash", "-o", "pipefail", "-c", cmd], tmp_path)
        assert (r.stdout + r.stderr).rstrip() == expected, f"README.md:{line}: `{cmd}` printed something else"


def test_readme_lisp_example_loads_and_type_checks():
    blocks = _blocks("lisp")
    assert blocks, "the README has no declaration example"
    for _, block in blocks:
        scenario = load_scenario(block, source="README.md")
        store = scenario.store()
        assert len(store) == len(scenario.init)
        assert scenario.queries and store.ask(scenario.queries[0]).known is False  # nobody told Anne anything


def _prose() -> str:
    """The README without fenced blocks and inline code (where URLs are commands, not links)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", TEXT))


def test_readme_links_only_inside_the_repository():
    prose = _prose()
    outside = re.findall(r"(?:https?|ftp)://\S+|www\.\S+", prose)
    assert not outside, f"links outside the repository: {outside}"
    for target in re.findall(r"\]\(([^)\s]+)[^)]*\)", prose) + re.findall(r"^\[[^\]]+\]:\s*(\S+)", prose, re.M):
        if target.startswith("#"):
            continue
        assert "://" not in target and not target.startswith("mailto:"), target
        assert (ROOT / target.split("#")[0]).exists(), f"README links to {target}, which is not in the repository"


def test_the_shipped_example_trace_answers_what_the_readme_says():
    trace = Trace.read(examples.path("sally_anne.trace.jsonl"))
    assert trace.ended and len(trace) == 8
    truth = check(trace, policy="strict-truthful")
    assert truth.answer("? Bob BELIEVE Anne BELIEVE Sally BELIEVE marble IN ?c").value == "basket"
    assert truth.answer("? Anne BELIEVE Sally BELIEVE marble IN ?c").value == "drawer"
    assert truth.answer("? Sally BELIEVE marble IN ?c").value == "drawer"
    assert truth.answer("? Bob BELIEVE marble IN ?c").value == "box"
    assert [a.bindings for a in truth.answers("? Bob BELIEVE ?o IN box")] == [{"o": "marble"}]
    assert (truth.knows("Sally", ("in", "marble")), truth.knows("Bob", ("in", "marble"))) == (True, False)
    assert "sally_anne.trace.jsonl" in TEXT
