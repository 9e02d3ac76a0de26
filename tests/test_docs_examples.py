"""The README's and the docs' examples run as written, in a temporary directory with the installed package, offline.

The pages are README.md and every ``docs/**/*.md``. In each:

* every ```python block runs on its own as a script (each is self-contained, imports included);
* every ```bash block that calls ``belief`` (a line starting with ``belief `` or ``$ belief``) runs with
  ``bash -e``, unless it carries the marker ``not run by the docs test`` (blocks needing an LLM server or a
  long install; keep them few); bash blocks that never call ``belief`` (``make``, ``pip``) are not run;
  a bash block whose fence reads ```` ```bash docs-test-episodes=K ```` (an info string, not shown on a
  rendered page) runs with every ``--episodes N`` above K cut to ``--episodes K``: the same commands, each
  of which must succeed, on fewer seeds (for a few long runs; keep them few);
* every ```console block is a transcript: each ``$ command`` runs and prints exactly the lines below it;
* every ```lisp block is a declaration that loads and type-checks;
* ```text blocks are synopses and outputs: not run;
* links point only inside the repository: no URL, no path that leaves it, every relative link resolves.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from belief import examples
from belief.logic.scenario import load_scenario
from belief.truth.checker import check
from belief.truth.trace import Trace

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NOT_RUN = "not run by the docs test"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
EPISODES_MARK = re.compile(r"\bdocs-test-episodes=(\d+)\b")


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _blocks(page: Path, language: str) -> list[tuple[str, int, str]]:
    """(page name, line number, body) of every fenced block in that language on the page."""
    text = _text(page)
    return [(_name(page), text[:m.start()].count("\n") + 1, m.group(2))
            for m in FENCE.finditer(text) if m.group(1) == language]


def _all_blocks(language: str) -> list[tuple[str, int, str]]:
    return [b for page in PAGES for b in _blocks(page, language)]


def _calls_belief(body: str) -> bool:
    return any(re.match(r"(\$ )?belief ", ln.strip()) for ln in body.splitlines())


def _offline_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "BELIEF_"))}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["COLUMNS"] = "120"
    env["MPLBACKEND"] = "Agg"
    return env


def _run(args, cwd, timeout=300, **kw):
    return subprocess.run(args, cwd=cwd, env=_offline_env(), capture_output=True, text=True, timeout=timeout, **kw)


def _ids(blocks):
    return [f"{page}:{line}" for page, line, _ in blocks]


PYTHON = _all_blocks("python")
BASH = [b for b in _all_blocks("bash") if _calls_belief(b[2])]
CONSOLE = _all_blocks("console")
LISP = _all_blocks("lisp")


def test_the_pages_exist():
    names = {_name(p) for p in PAGES}
    worlds = {"bomb", "blocks", "hanabi", "household", "transport", "maze", "coordqa"}
    assert {"docs/index.md", "docs/logic.md", "docs/trace-format.md", "docs/grading.md", "docs/llm.md",
            "docs/architecture.md"} <= names
    assert {f"docs/worlds/{w}.md" for w in worlds} <= names


def test_the_readme_is_short_and_starts_with_the_two_commands():
    text = _text(ROOT / "README.md")
    assert len(text.splitlines()) <= 400
    first = FENCE.search(text)
    assert first and first.group(2).split()[:2] == ["make", "demo"] and "make test" in first.group(2)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^demo:", makefile, re.M) and re.search(r"^test:", makefile, re.M)


def test_the_readme_has_examples_of_each_kind():
    readme = "README.md"
    assert [b for b in PYTHON if b[0] == readme] and len([b for b in BASH if b[0] == readme]) >= 2
    assert [b for b in CONSOLE if b[0] == readme]
    marked = [b for b in _all_blocks("bash") if NOT_RUN in b[2]]
    assert len(marked) <= 3, f"keep the blocks the test cannot run few: {_ids(marked)}"


@pytest.mark.parametrize("page,line,body", PYTHON, ids=_ids(PYTHON))
def test_python_block_runs_as_written(page, line, body, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(body, encoding="utf-8")
    r = _run([sys.executable, str(script)], tmp_path)
    assert r.returncode == 0, f"{page}:{line}: the python block fails:\n{r.stderr[-3000:]}"


def _episodes_in_test(page: str, line: int) -> int | None:
    """K of a block whose opening fence (on that line of the page) carries ``docs-test-episodes=K``, else None."""
    fence = _text(ROOT / page).splitlines()[line - 1]
    mark = EPISODES_MARK.search(fence)
    return int(mark.group(1)) if mark else None


def fewer_episodes(script: str, k: int) -> str:
    """The script with every ``--episodes N`` above k cut to ``--episodes k``."""
    return re.sub(r"--episodes (\d+)\b", lambda m: f"--episodes {min(int(m.group(1)), k)}", script)


def test_fewer_episodes_cuts_only_larger_counts():
    script = "belief run bomb --episodes 20 --seed 0\nbelief run bomb --episodes 1 --out x --episodes-subset 3,4"
    assert fewer_episodes(script, 2) == ("belief run bomb --episodes 2 --seed 0\n"
                                         "belief run bomb --episodes 1 --out x --episodes-subset 3,4")


def test_blocks_marked_to_play_fewer_episodes_are_few_and_have_more():
    marked = [(page, line, body, _episodes_in_test(page, line)) for page, line, body in _all_blocks("bash")
              if _episodes_in_test(page, line) is not None]
    assert len(marked) <= 5, f"keep the blocks the test shortens few: {[f'{p}:{n}' for p, n, _, _ in marked]}"
    for page, line, body, k in marked:  # a stale mark (nothing left to cut) goes
        assert fewer_episodes(body, k) != body, f"{page}:{line}: no --episodes above {k} to cut"


@pytest.mark.parametrize("page,line,body", BASH, ids=_ids(BASH))
def test_bash_block_runs_as_written(page, line, body, tmp_path):
    if NOT_RUN in body:
        pytest.skip(f"{page}:{line} is marked '{NOT_RUN}'")
    script = "\n".join(re.sub(r"^\$ ", "", ln) for ln in body.splitlines())
    k = _episodes_in_test(page, line)
    if k is not None:
        script = fewer_episodes(script, k)
    r = _run(["bash", "-e", "-o", "pipefail", "-c", script], tmp_path)
    assert r.returncode == 0, f"{page}:{line}: the bash block fails:\n{r.stdout[-1500:]}\n{r.stderr[-1500:]}"


def _transcript(body: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a console block."""
    pairs = []
    for ln in body.splitlines():
        if ln.startswith("$ "):
            pairs.append((ln[2:], []))
        elif pairs:
            pairs[-1][1].append(ln)
    return [(cmd, "\n".join(out).rstrip()) for cmd, out in pairs]


@pytest.mark.parametrize("page,line,body", CONSOLE, ids=_ids(CONSOLE))
def test_console_transcript_prints_what_it_shows(page, line, body, tmp_path):
    pairs = _transcript(body)
    assert pairs, f"{page}:{line}: a console block must show '$ command' lines"
    for cmd, expected in pairs:
        r = _run(["bash", "-o", "pipefail", "-c", cmd], tmp_path)
        assert (r.stdout + r.stderr).rstrip() == expected, f"{page}:{line}: `{cmd}` printed something else"


@pytest.mark.parametrize("page,line,body", LISP, ids=_ids(LISP))
def test_lisp_declaration_loads_and_type_checks(page, line, body):
    scenario = load_scenario(body, source=f"{page}:{line}")
    store = scenario.store()
    assert len(store) == len(scenario.init)
    assert scenario.queries and store.ask(scenario.queries[0]).known is False  # nobody told Anne anything


def test_there_is_a_declaration_example():
    assert LISP, "the docs have no domain declaration example"


# --- links ------------------------------------------------------------------------------------------------

def _prose(text: str) -> str:
    """A page without fenced blocks and inline code (where URLs are commands, not links)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def _links(text: str) -> list[str]:
    prose = _prose(text)
    return re.findall(r"\]\(([^)\s]+)[^)]*\)", prose) + re.findall(r"^\[[^\]]+\]:\s*(\S+)", prose, re.M)


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings."""
    out = set()
    for heading in re.findall(r"^#+ (.+)$", FENCE.sub("", _text(page)), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", "")).replace(" ", "-")
        out.add(slug)
    return out


def link_problems(page: Path, text: str) -> list[str]:
    """Why the links of a page (at `page`, with this `text`) do not all stay inside the repository."""
    problems = []
    prose = _prose(text)
    for url in re.findall(r"(?:https?|ftp)://\S+|www\.\S+|mailto:\S+", prose):
        problems.append(f"a URL: {url}")
    for target in _links(text):
        if "://" in target or target.startswith("mailto:"):
            continue  # reported above
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page.resolve()
        if not resolved.is_relative_to(ROOT):
            problems.append(f"{target}: leaves the repository")
        elif not resolved.exists():
            problems.append(f"{target}: no such file in the repository")
        elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
            problems.append(f"{target}: no heading '#{anchor}' in {_name(resolved)}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_links_stay_inside_the_repository(page):
    text = _text(page)
    assert "../shared" not in text and "/work/" not in text
    assert link_problems(page, text) == []


@pytest.mark.parametrize("text,problem", [
    ("See [design](../shared/DESIGN.md).", "leaves the repository"),
    ("See [x](docs/nowhere.md).", "no such file"),
    ("See [x](https://example.org/).", "a URL"),
    ("See [x](docs/logic.md#no-such-heading).", "no heading"),
])
def test_the_link_check_catches_bad_links(text, problem):
    problems = link_problems(ROOT / "README.md", text)
    assert problems and problem in problems[0]


def test_the_link_check_accepts_good_links():
    assert link_problems(ROOT / "README.md", "[a](docs/logic.md#trust-policies), [b](#worlds), [c](belief/examples/)") == []


# --- what the pages say about the shipped examples -----------------------------------------------------------

def test_the_shipped_example_trace_answers_what_the_logic_page_says():
    text = _text(ROOT / "docs" / "logic.md")
    assert "sally_anne.trace.jsonl" in text
    trace = Trace.read(examples.path("sally_anne.trace.jsonl"))
    assert trace.ended and len(trace) == 8
    truth = check(trace, policy="strict-truthful")
    assert truth.answer("? Bob BELIEVE Anne BELIEVE Sally BELIEVE marble IN ?c").value == "basket"
    assert truth.answer("? Anne BELIEVE Sally BELIEVE marble IN ?c").value == "drawer"
    assert truth.answer("? Sally BELIEVE marble IN ?c").value == "drawer"
    assert truth.answer("? Bob BELIEVE marble IN ?c").value == "box"
    assert [a.bindings for a in truth.answers("? Bob BELIEVE ?o IN box")] == [{"o": "marble"}]
    assert (truth.knows("Sally", ("in", "marble")), truth.knows("Bob", ("in", "marble"))) == (True, False)


def test_the_trace_format_page_shows_the_shipped_trace():
    text = _text(ROOT / "docs" / "trace-format.md")
    shipped = examples.path("sally_anne.trace.jsonl").read_text(encoding="utf-8").strip()
    assert shipped in text
