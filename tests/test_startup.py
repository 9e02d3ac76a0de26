"""Start-up budget by module list (not by timing): ``belief --help``, ``import belief`` and each command module
import none of the heavy packages their work does not need. A new top-level import that pulls one in fails
here; move it into the function that needs it (the app layer may), or behind ``belief._LAZY``."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest

import belief.app.cli

#: heavy packages (and belief's own heavy layers) no command module may import when it is imported
HEAVY = ("networkx", "numpy", "scipy", "pandas", "torch", "pettingzoo", "gymnasium", "openai", "httpx",
         "matplotlib", "ray", "unified_planning", "overcooked_ai_py", "belief.envs", "belief.agents",
         "belief.truth.checker", "belief.logic.store")
#: and besides, what printing the command list and ``import belief`` do without: the tracker, the trace's
#: pydantic models, the LLM client, and (for --help) the Markdown and traceback renderers typer would bring
NOT_FOR_HELP = HEAVY + ("belief.truth", "pydantic", "belief.llm", "belief.grading", "belief.stories",
                        "markdown_it", "pygments", "rich.markdown", "rich.traceback", "rich.pretty", "attr")
#: command modules that still import heavy packages at their top (module -> those it imports): tolerated
#: until their imports move into their commands; the table only shrinks (see the test below), and is empty now
KNOWN_HEAVY: dict[str, frozenset[str]] = {}

_REPORT = "import json, sys; print(json.dumps(sorted(sys.modules)))"
_HELP = ("import contextlib, io, runpy, sys\n"
         "sys.argv = ['belief', '--help']\n"
         "with contextlib.redirect_stdout(io.StringIO()):\n"
         "    try:\n"
         "        runpy.run_module('belief', run_name='__main__')\n"
         "    except SystemExit:\n"
         "        pass\n" + _REPORT)


def _heavy(modules: list[str], names: tuple[str, ...]) -> set[str]:
    return {h for h in names for m in modules if m == h or m.startswith(h + ".")}


def _modules_after(code: str) -> list[str]:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1])


def test_belief_help_imports_nothing_heavy():
    modules = _modules_after(_HELP)
    assert _heavy(modules, NOT_FOR_HELP) == set()
    assert not [m for m in modules if m.startswith("belief.app.") and m.count(".") > 2 and not m.startswith(
        ("belief.app.cli.app", "belief.app.cli.usage_errors"))], "belief --help imported a command module"


def test_import_belief_leaves_the_tracker_checker_and_trace_for_first_use():
    modules = _modules_after("import belief\n" + _REPORT)
    assert _heavy(modules, NOT_FOR_HELP) == set()
    modules = _modules_after("from belief import Tracker, check, Trace, BeliefStore\n" + _REPORT)
    assert {"belief.truth.tracker", "belief.truth.checker", "belief.truth.trace", "belief.logic.store"} <= set(modules)


def _command_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(belief.app.cli.__path__))


@pytest.fixture(scope="module")
def imported_by_command_module() -> dict[str, set[str]]:
    """Each command module imported alone, in its own interpreter (all at once): the heavy modules it brought."""
    runs = {m: subprocess.Popen([sys.executable, "-c", f"import belief.app.cli.{m}\n" + _REPORT],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for m in _command_modules()}
    out = {}
    for module, run in runs.items():
        stdout, stderr = run.communicate(timeout=300)
        assert run.returncode == 0, (module, stderr)
        out[module] = _heavy(json.loads(stdout.splitlines()[-1]), HEAVY)
    return out


@pytest.mark.parametrize("module", _command_modules())
def test_a_command_module_imports_nothing_heavy_at_start_up(module, imported_by_command_module):
    assert imported_by_command_module[module] <= KNOWN_HEAVY.get(module, frozenset()), (
        f"belief.app.cli.{module} imports {sorted(imported_by_command_module[module])} when imported: move the "
        f"import into the command that needs it")


def test_the_tolerated_heavy_imports_are_still_there(imported_by_command_module):
    """An entry of KNOWN_HEAVY that a module no longer imports must go (the table only shrinks)."""
    gone = {m: sorted(KNOWN_HEAVY[m] - imported_by_command_module.get(m, set())) for m in KNOWN_HEAVY}
    assert not any(gone.values()), f"remove from KNOWN_HEAVY: {gone}"
