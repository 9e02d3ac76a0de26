"""The core install without the extras: the kernel and `belief grade` work, a command that needs an extra says
which in one line, and the command line imports no command module before a command runs.

The extras are "uninstalled" in a subprocess by a meta-path finder that refuses their top-level modules (as
pip's absence would: ModuleNotFoundError naming the module)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from belief.app.cli import app, import_all_commands
from belief.app.cli.app import BENCH_COMMANDS, COMMANDS, RUN_COMMANDS, LazyCommand
from belief.errors import EXTRA_OF_MODULE, BeliefError, MissingExtraError, missing_extra

EXAMPLES = Path(__file__).resolve().parents[2] / "belief" / "examples"
#: every module an extra installs (the envs extra's numpy included)
EXTRA_MODULES = sorted(EXTRA_OF_MODULE)

BLOCKER = """
import importlib.abc, sys
BLOCKED = set(sys.argv[1].split(","))
early = sorted(BLOCKED & {m.partition(".")[0] for m in sys.modules})
assert not early, f"imported before the blocker: {early}"

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
del sys.argv[1]
"""


def without(modules, code: str, *args, cwd=None) -> subprocess.CompletedProcess:
    """Run Python `code` (argv: `args`) with `modules` not importable."""
    return subprocess.run([sys.executable, "-c", BLOCKER + code, ",".join(modules), *map(str, args)],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


CLI = "from belief.app.cli import main\nsys.argv[0] = 'belief'\nmain()\n"


def test_kernel_and_grade_need_no_extra(tmp_path):
    r = without(EXTRA_MODULES, "import belief.truth.checker, belief.truth.trace, belief.logic.store\n"
                "from belief import examples\nprint(examples.scenario('sally-anne').store().chains())")
    assert r.returncode == 0, r.stderr
    r = without(EXTRA_MODULES, CLI, "grade", EXAMPLES / "grading_example.trace.jsonl",
                EXAMPLES / "grading_example.answers.jsonl", "--questions", EXAMPLES / "grading_example.questions.jsonl",
                "--json", "--executor", "serial", "--no-progress")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["questions"] > 0 and summary["correct"] <= summary["questions"]
    r = without(EXTRA_MODULES, CLI, "--help")
    assert r.returncode == 0 and "grade" in r.stdout and "run" in r.stdout, r.stderr


@pytest.mark.parametrize("args,extra", [
    (["run", "bomb", "--episodes", "1", "--out", "{tmp}/run"], "envs"),
    (["run", "blocks", "--episodes", "1"], "envs"),
    (["plot", str(EXAMPLES / "grading_example.trace.jsonl"), "--out", "{tmp}/fig.png"], "plot"),
])
def test_a_missing_extra_is_one_line(tmp_path, args, extra):
    r = without(EXTRA_MODULES, CLI, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert r.returncode != 0
    assert r.stderr.splitlines() == [f"error: this command needs the '{extra}' extra: pip install 'belief[{extra}]'"]
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_ray_executor_without_ray_is_one_line():
    r = without(["ray"], CLI, "grade", EXAMPLES / "grading_example.trace.jsonl",
                EXAMPLES / "grading_example.answers.jsonl", "--questions", EXAMPLES / "grading_example.questions.jsonl",
                "--executor", "ray", "--no-progress")
    assert r.returncode == 1
    assert r.stderr.splitlines() == ["error: the ray executor needs the 'ray' extra: pip install 'belief[ray]'"]


def test_the_planner_without_unified_planning_names_the_extra_and_falls_back():
    r = without(["unified_planning", "up_pyperplan", "pyperplan"], """
from belief.agents.transport import planner
from belief.errors import MissingExtraError
try:
    planner.solve("r1", [], {}, {"a": "r2"}, "r1", ["a"], [], True)
except MissingExtraError as e:
    print(e)
p = planner.Planner("pyperplan")
acts = p.plan("r1", [], {}, {"a": "r2"}, "r1", ["a"], [], True)
print(bool(acts), p.stats["fallbacks"])
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["planning with unified-planning needs the 'plan' extra: "
                                     "pip install 'belief[plan]'", "True 1"]


def test_missing_extra_maps_modules_to_extras():
    e = missing_extra(ModuleNotFoundError("No module named 'pettingzoo.utils'", name="pettingzoo.utils"))
    assert isinstance(e, MissingExtraError) and isinstance(e, BeliefError) and e.extra == "envs"
    assert str(e) == "this command needs the 'envs' extra: pip install 'belief[envs]'"
    assert missing_extra(ModuleNotFoundError("No module named 'nope'", name="nope")) is None
    assert missing_extra(ImportError("cannot import name 'x'")) is None
    assert {EXTRA_OF_MODULE[m] for m in ("ray", "matplotlib", "unified_planning", "numpy")} == {"ray", "plot", "plan",
                                                                                                "envs"}


def test_the_command_line_imports_no_command_module_nor_heavy_dependency():
    heavy = ["pettingzoo", "gymnasium", "matplotlib", "ray", "unified_planning", "numpy", "openai", "networkx"]
    code = ("import sys\nimport belief.app.cli\n"
            "print(sorted({m.partition('.')[0] for m in sys.modules} & set(sys.argv[1:])))\n"
            "print(sorted(m for m in sys.modules if m.startswith('belief.app.')))")
    r = subprocess.run([sys.executable, "-c", code, *heavy], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    imported, app_modules = r.stdout.splitlines()
    assert imported == "[]"
    assert app_modules == str(["belief.app.cli", "belief.app.cli.app", "belief.app.cli.usage_errors"])


def _first_paragraph(text: str) -> str:
    return " ".join(text.split("\n\n")[0].split())


def test_the_command_tables_match_the_commands_the_modules_define():
    """app/cli/app.py lists each command with its module and help; a new or renamed command, or a changed
    first paragraph of a docstring, needs its line there."""
    import_all_commands()
    root = typer.main.get_command(app)
    for group, table in ((root, COMMANDS), (root.commands["bench"], BENCH_COMMANDS),
                         (root.commands["run"], RUN_COMMANDS)):
        real = {n: c for n, c in group.commands.items() if not hasattr(c, "commands")}
        assert not any(isinstance(c, LazyCommand) for c in real.values())
        assert sorted(real) == sorted(table)
        for name, command in real.items():
            module, text = table[name]
            assert command.callback.__module__ == f"belief.app.cli.{module}", name
            assert _first_paragraph(command.help) == text, name


def test_a_world_without_the_envs_extra_names_it_to_library_users(tmp_path):
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.partition('.')[0] in ('pettingzoo', 'gymnasium', 'numpy'):\n"
            "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from belief.errors import MissingExtraError\n"
            "from belief.envs.bomb import translation  # a helper module needs no extra\n"
            "try:\n"
            "    from belief.envs.bomb import env\n"
            "except MissingExtraError as e:\n"
            "    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "belief.envs.bomb.env needs the 'envs' extra: pip install 'belief[envs]'"
