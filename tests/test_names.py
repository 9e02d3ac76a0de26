"""One name per module and per role: versioned world names, deprecated old names, installed packages.

This file and ``belief/old_names.py`` are the only places that may spell an old module name: every other
file of the project (code, tests, docs, notebooks, CI, Makefile) uses the new names.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

from belief.old_names import OLD_NAMES

ROOT = Path(__file__).resolve().parents[1]
#: source folder -> import name (pyproject's package-dir)
SOURCES = {"belief": "belief", "grammar": "belief.grammar", "envs": "belief.envs", "agents": "belief.agents",
           "app": "belief.app"}
#: every world's versioned name -> the module that defines its environment
VERSIONED = {
    "bomb_v0": "belief.envs.bomb.environment", "transport_v0": "belief.envs.transport.environment",
    "household_v0": "belief.envs.household.environment", "blocks_v0": "belief.envs.blocks.environment",
    "hanabi_v0": "belief.envs.hanabi.environment", "guandan_v0": "belief.envs.guandan.environment",
    "overcooked_v0": "belief.envs.overcooked.environment", "capture_v0": "belief.envs.maze.capture",
    "escape_v0": "belief.envs.maze.escape",
}
#: the one file name of each role inside a world package, and the names it replaced
ROLE_FILES = {"world.py": "the world model", "text.py": "its text", "events.py": "its events",
              "tom.py": "its questions", "environment.py": "its PettingZoo environment"}
RETIRED_ROLE_FILES = {"map.py", "rules.py", "engine.py", "deal.py"}
#: files allowed to spell old names: the table itself and this test
OLD_NAME_HOMES = {"belief/old_names.py", "tests/test_names.py"}
TEXT_SUFFIXES = (".py", ".md", ".toml", ".ipynb", ".cfg", ".txt", ".yml", ".yaml", ".lark")


def _project_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    return [f for f in out if f.endswith(TEXT_SUFFIXES) or f in ("Makefile", ".ci/run", ".gitignore")]


def _old_name_pattern() -> re.Pattern:
    """An old name as an import would spell it: ``belief.checker`` or ``from belief import checker``."""
    spelled = [re.escape(old) for old in OLD_NAMES]
    froms = [rf"from\s+{re.escape(old.rsplit('.', 1)[0])}\s+import\s+(?:[\w, ]*,\s*)?{old.rsplit('.', 1)[1]}\b"
             for old in OLD_NAMES]
    return re.compile(rf"(?:(?<![\w.])(?:{'|'.join(spelled)})(?![\w])|{'|'.join(froms)})")


def old_name_uses(files: dict[str, str]) -> list[str]:
    """``path:line: text`` of every line spelling an old module name."""
    pattern = _old_name_pattern()
    return [f"{path}:{n}: {line.strip()}" for path, text in files.items() if path not in OLD_NAME_HOMES
            for n, line in enumerate(text.splitlines(), 1) if pattern.search(line)]


def test_no_project_file_uses_an_old_name():
    files = {f: (ROOT / f).read_text(encoding="utf-8", errors="replace") for f in _project_files()}
    assert len(files) > 300
    assert old_name_uses(files) == []


@pytest.mark.parametrize("text, found", [
    ("import belief.checker", True),
    ("from belief import checker", True),
    ("from belief.envs.bomb import map", True),
    ("from belief.envs.bomb.map import GameMap", True),
    ("see `belief.agents.bomb_belief`", True),
    ("import belief.truth.checker", False),
    ("from belief.envs.bomb import world", False),
    ("belief.checkerboard", False),
])
def test_the_old_name_scan_finds_old_spellings_only(text, found):
    assert bool(old_name_uses({"x.py": text})) is found


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_an_old_name_warns_and_gives_the_new_module(old):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=re.escape(OLD_NAMES[old])):
        module = importlib.import_module(old)
    assert module is importlib.import_module(OLD_NAMES[old])


def test_the_new_names_do_not_warn():
    code = ("import warnings; warnings.simplefilter('error')\n"
            "import belief, belief.truth.checker, belief.logic.store, belief.envs.bomb_v0, belief.app.cli.app")
    subprocess.run([sys.executable, "-c", code], check=True)


#: what ``belief.llm_client`` (now ``belief.llm.client``) offered before it was split by job
OLD_CLIENT_NAMES = [
    "LLMClient", "LLMConfig", "LLMConfigError", "LLMError", "LLMOutputError", "LLMResponseError", "LLMUnavailableError",
    "TokenUsage", "ResponseCache", "Completion", "Structured", "extract_json", "response_usage", "call_deadline",
    "retry_after", "load_mapping", "one_line", "ENV_BASE_URL", "ENV_API_KEY", "ENV_MODEL", "ENV_CONFIG",
    "PLACEHOLDER_KEY", "MAX_REPLY_BYTES", "RETRY_STATUSES", "CACHE_SCHEMA",
]


def test_the_names_of_the_client_module_before_its_split_are_still_importable():
    import belief.llm.client as client
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import belief.llm_client as old  # the old flat name (belief.old_names)

    assert old is client
    missing = [name for name in OLD_CLIENT_NAMES if not hasattr(client, name)]
    assert missing == []
    from belief.llm.cache import ResponseCache
    from belief.llm.config import LLMConfig
    from belief.llm.errors import LLMError
    assert (client.ResponseCache, client.LLMConfig, client.LLMError) == (ResponseCache, LLMConfig, LLMError)


def test_the_versioned_names_have_no_files():
    """``bomb_v0`` and the rest are served by the table of :mod:`belief.envs.versions`, not by flat files of
    their own (what they give is tested in ``tests/envs/test_versioned_names.py``)."""
    assert sorted(p.name for p in (ROOT / "envs").glob("*_v[0-9]*.py")) == []
    from belief.envs.versions import VERSIONED as table
    assert table == VERSIONED


def test_the_versioned_names_are_every_world():
    """Each world package with a PettingZoo environment, and each maze game, has a versioned name."""
    worlds = {f"belief.envs.{p.parent.name}.environment" for p in (ROOT / "envs").glob("*/environment.py")
              if p.parent.name != "maze"}  # the maze's environment.py is the base of its two games
    games = {f"belief.envs.maze.{p.stem}" for p in (ROOT / "envs" / "maze").glob("*.py")
             if re.search(r"^def env\b|^env, parallel_env = ", p.read_text(), re.M)}
    assert games == {"belief.envs.maze.capture", "belief.envs.maze.escape"}
    assert set(VERSIONED.values()) == worlds | games


def test_world_packages_use_one_file_name_per_role():
    for folder in sorted(p for p in (ROOT / "envs").iterdir() if (p / "__init__.py").is_file()):
        names = {p.name for p in folder.glob("*.py")}
        assert not names & RETIRED_ROLE_FILES, (folder.name, sorted(names & RETIRED_ROLE_FILES))
        if folder.name not in ("base", "coordqa", "maze"):  # maze: one world model, two games (capture, escape)
            assert {"world.py", "environment.py"} <= names, (folder.name, sorted(names))


def _package_folders() -> set[str]:
    """Every folder holding Python modules below the source roots, as its import name."""
    out = set()
    for folder, name in SOURCES.items():
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.parent.relative_to(ROOT / folder)
            if "__pycache__" not in rel.parts:
                out.add(".".join((name, *rel.parts)))
    return out


def test_every_package_folder_is_installed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {name: folder for folder, name in SOURCES.items()}
    listed = set(config["packages"])
    folders = _package_folders()
    assert folders - listed == set(), f"package folders missing from pyproject.toml: {sorted(folders - listed)}"
    assert listed - folders == set(), f"pyproject.toml lists folders that do not exist: {sorted(listed - folders)}"
    no_init = sorted(f for f in folders if not (ROOT / _folder_of(f) / "__init__.py").is_file())
    assert no_init == [], f"package folders without __init__.py: {no_init}"


def _folder_of(package: str) -> Path:
    for folder, name in sorted(SOURCES.items(), key=lambda kv: -len(kv[1])):
        if package == name or package.startswith(name + "."):
            return Path(folder, *package[len(name):].split(".")[1:])
    raise AssertionError(package)


def test_the_gitignore_ignores_only_the_top_level_run_folder():
    ignored = subprocess.run(["git", "check-ignore", "--no-index", "-q", "app/runs/x.py"], cwd=ROOT).returncode
    assert ignored == 1, "app/runs/ is ignored: a new module there would silently miss a commit"
    assert subprocess.run(["git", "check-ignore", "--no-index", "-q", "runs/bomb/x.json"], cwd=ROOT).returncode == 0


def test_the_package_exports_the_tour_names():
    import belief

    for name in belief.__all__:
        assert getattr(belief, name) is not None, name
    from belief import BeliefStore, Trace, check
    from belief.logic.store import BeliefStore as store_class
    from belief.truth.checker import check as check_function
    from belief.truth.trace import Trace as trace_class
    assert (BeliefStore, Trace, check) == (store_class, trace_class, check_function)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        belief.nothing  # noqa: B018
