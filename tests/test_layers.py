"""The package's layers, enforced by an AST scan of every module (no imports are executed).

Layers, bottom to top (a layer may import the ones below it, never the ones above):

* **core**: ``belief.*`` (``belief/``, and ``grammar/`` as ``belief.grammar``) minus the layers below;
* **testing**: ``belief.testing`` (hypothesis strategies, a scripted LLM server): the core only;
* **envs**: ``belief.envs`` (``envs/``): the core, never agents or the applications;
* **agents**: ``belief.agents`` (``agents/``): the core and the envs, never the applications;
* **app**: ``belief.app`` (CLI, runners, benches, demo) and ``belief.__main__``: anything.

Besides, the core has no function-level imports (except :data:`LAZY_OK`, optional heavy dependencies)
and its module import graph has no cycle. Imports are read from the AST: ``import x``, ``from x import
y`` (``y`` counts as the module ``x.y`` when that is a module), relative imports resolved against the
importing package, and ``importlib.import_module("...")`` / ``__import__("...")`` with a literal name
(with any other argument the call itself is a violation in the core: it cannot be checked).
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: source folder -> import name (pyproject's setuptools package-dir)
SOURCES = {"belief": "belief", "grammar": "belief.grammar", "envs": "belief.envs", "agents": "belief.agents",
           "app": "belief.app"}

#: third-party packages the core may import inside a function: optional and heavy. Only Ray (the optional
#: ``ray`` extra, imported by belief.app.runs.executor when --executor ray is asked for); every other heavy package
#: the core uses (numpy, networkx, lark, openai, pydantic) is a hard dependency imported at the top.
LAZY_OK: frozenset[str] = frozenset({"ray"})

#: function-level imports in files owned by the ongoing checker/trace rewrite, tolerated until it lands:
#: (importing module, imported module). Remove an entry as soon as its import moves to the top.
PENDING_LAZY: frozenset[tuple[str, str]] = frozenset()

#: core modules allowed one import of a computed name: the table of old import names
#: (:mod:`belief.old_names`), which imports the module a user asks for by its old name; its table is checked
#: below (every target exists, no old name shadows a real module)
#: (and the package itself, whose ``__getattr__`` loads the names of its table ``_LAZY`` on first use)
ALIAS_MODULES: frozenset[str] = frozenset({"belief.old_names", "belief"})

LAYERS = ("core", "testing", "envs", "agents", "app")
#: what each layer may import (besides itself and third-party packages)
ALLOWED = {
    "core": {"core"},
    "testing": {"core", "testing"},
    "envs": {"core", "envs"},
    "agents": {"core", "envs", "agents"},
    "app": set(LAYERS),
}


def layer_of(module: str) -> str | None:
    """The layer of a ``belief`` module, None for a third-party one."""
    if module != "belief" and not module.startswith("belief."):
        return None
    for prefix, layer in (("belief.app", "app"), ("belief.__main__", "app"), ("belief.testing", "testing"),
                          ("belief.envs", "envs"), ("belief.agents", "agents")):
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return "core"


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module (absolute)
    line: int
    nested: bool  # inside a def or a class body: executed later, not at import time
    dynamic: bool = False  # importlib.import_module / __import__
    unresolved: bool = False  # a dynamic import whose name is not a literal


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """{module name: file} for every module of the package."""
    out = {}
    for folder, name in SOURCES.items():
        base = root / folder
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([name, *parts])] = path
    return out


def scan_source(module: str, source: str, known: set[str], is_package: bool = False) -> list[Import]:
    """Every import of one module's source. ``known`` is the set of module names of the package (to tell a
    submodule ``from pkg import sub`` from a name ``from pkg import func``)."""
    tree = ast.parse(source)
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []

    def absolute(level: int, name: str | None) -> str:
        if not level:
            return name or ""
        base = package.split(".")
        base = base[: len(base) - (level - 1)] if level > 1 else base
        return ".".join([*base, *([name] if name else [])])

    def visit(node: ast.AST, nested: bool) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(module, alias.name, node.lineno, nested))
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node.level, node.module)
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
            if not subs or len(subs) < len(node.names):
                found.append(Import(module, base, node.lineno, nested))
            found.extend(Import(module, s, node.lineno, nested) for s in subs)
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            if name in ("import_module", "__import__"):
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    pkg = next((k.value.value for k in node.keywords if k.arg == "package"
                                and isinstance(k.value, ast.Constant)), None)
                    target = arg.value
                    if target.startswith(".") and isinstance(pkg, str):
                        target = importlib.util.resolve_name(target, pkg)
                    found.append(Import(module, target, node.lineno, True, dynamic=True))
                else:
                    found.append(Import(module, "?", node.lineno, True, dynamic=True, unresolved=True))
        inner = nested or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, False)
    return found


def scan(files: dict[str, Path]) -> list[Import]:
    known = set(files)
    out = []
    for mod, path in files.items():
        out.extend(scan_source(mod, path.read_text(encoding="utf-8"), known, path.name == "__init__.py"))
    return out


def layer_violations(imports: list[Import]) -> list[str]:
    bad = []
    for imp in imports:
        src = layer_of(imp.module)
        if imp.unresolved:
            if src == "core" and imp.module not in ALIAS_MODULES:
                bad.append(f"{imp.module}:{imp.line}: dynamic import of a computed name (cannot be checked)")
            continue
        dst = layer_of(imp.target)
        if src is None or dst is None:
            continue
        if dst not in ALLOWED[src]:
            bad.append(f"{imp.module}:{imp.line}: {src} module imports {imp.target} ({dst})")
    return bad


def lazy_violations(imports: list[Import]) -> list[str]:
    bad = []
    for imp in imports:
        if layer_of(imp.module) != "core" or not imp.nested or imp.unresolved:
            continue
        top = imp.target.split(".")[0]
        if top in LAZY_OK or (imp.module, imp.target) in PENDING_LAZY:
            continue
        bad.append(f"{imp.module}:{imp.line}: function-level import of {imp.target}")
    return bad


def cycles(imports: list[Import], layer: str = "core") -> list[list[str]]:
    """The strongly connected components (size > 1, or a self-loop) of one layer's module import graph."""
    graph: dict[str, set[str]] = {}
    for imp in imports:
        if layer_of(imp.module) == layer and layer_of(imp.target) == layer and not imp.unresolved:
            graph.setdefault(imp.module, set()).add(imp.target)
            graph.setdefault(imp.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:  # Tarjan, iterative over the recursion-free graph sizes we have
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph[v]:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


# --- the package itself ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return scan(module_files())


def test_every_layer_is_present():
    layers = {layer_of(m) for m in module_files()}
    assert layers == set(LAYERS)


def test_layers_import_only_downwards(imports):
    assert layer_violations(imports) == []


def test_core_has_no_function_level_imports(imports):
    assert lazy_violations(imports) == []


@pytest.mark.parametrize("layer", LAYERS)
def test_no_import_cycles(imports, layer):
    assert cycles(imports, layer) == []


def test_pending_exceptions_are_still_needed(imports):
    """An entry of PENDING_LAZY whose import has gone must be removed (the list only shrinks)."""
    present = {(i.module, i.target) for i in imports if i.nested}
    assert PENDING_LAZY <= present, sorted(PENDING_LAZY - present)


# --- the scanner can fail --------------------------------------------------------------------------

KNOWN = {"belief", "belief.logic.formula", "belief.logic.store", "belief.logic.domain", "belief.envs", "belief.envs.bomb.environment",
         "belief.agents", "belief.agents.bomb.llm", "belief.app", "belief.app.cli", "belief.grammar"}


def _scan(files: dict[str, str]) -> list[Import]:
    out = []
    for mod, src in files.items():
        out.extend(scan_source(mod, src, KNOWN | set(files)))
    return out


@pytest.mark.parametrize("source", [
    "import belief.envs.bomb.environment",
    "from belief.envs import bomb_v0",
    "from belief import envs",
    "from belief.agents.bomb.llm import thing",
    "from ..envs import bomb_v0",  # relative, from belief.llm.translate
    "from .. import app",
    "import importlib\nimportlib.import_module('belief.envs.bomb.environment')",
    "from importlib import import_module\nimport_module('.envs.bomb_v0', package='belief')",
    "def f():\n    return __import__('belief.app.cli')",
])
def test_scanner_flags_a_core_module_importing_upwards(source):
    assert layer_violations(_scan({"belief.llm.translate": source})), source


def test_scanner_flags_unresolvable_dynamic_imports_in_the_core():
    bad = layer_violations(_scan({"belief.llm.translate": "import importlib\nname = 'x'\nimportlib.import_module(name)"}))
    assert bad and "computed name" in bad[0]


@pytest.mark.parametrize("module, source", [
    ("belief.envs.bomb.translation", "from belief.agents.bomb import llm"),
    ("belief.envs.bomb.translation", "from belief.app.cli import main"),
    ("belief.agents.bomb.llm", "import belief.app.cli"),
    ("belief.testing.traces", "from belief.envs import bomb_v0"),
])
def test_scanner_flags_other_upward_imports(module, source):
    assert layer_violations(_scan({module: source}))


def test_scanner_allows_downward_imports():
    files = {"belief.app.cli": "from belief.envs import bomb_v0\nfrom belief.agents.bomb import llm\nimport belief.logic.store",
             "belief.agents.bomb.llm": "from belief.envs.bomb.environment import x\nfrom belief.logic.formula import Fact",
             "belief.envs.bomb.environment": "from belief.logic.store import BeliefStore\nimport numpy"}
    assert layer_violations(_scan(files)) == []


def test_scanner_flags_function_level_imports_in_the_core():
    src = "import numpy\n\ndef f():\n    import networkx\n    from belief.logic.formula import Fact\n\nclass C:\n    import json\n"
    bad = lazy_violations(_scan({"belief.logic.store": src}))
    assert len(bad) == 3 and all("function-level" in b for b in bad)
    assert lazy_violations(_scan({"belief.envs.bomb.environment": src})) == []  # only the core is held to it


def test_scanner_finds_cycles():
    files = {"belief.logic.formula": "def parse():\n    from belief.grammar import parse_formula",
             "belief.grammar": "from belief.logic.formula import Fact",
             "belief.logic.store": "from belief.logic.formula import Fact"}
    assert cycles(_scan(files)) == [["belief.grammar", "belief.logic.formula"]]
    files["belief.logic.formula"] = ""
    assert cycles(_scan(files)) == []


# --- packages inside the layers ----------------------------------------------------------------------
#
# The kernel reads bottom to top: errors; files (atomic writes, strict JSON); the logic and the grammar (one
# level: the grammar registers the parsers behind Formula.parse); the truth (trace, checker, filter); then
# grading, the LLM boundary and the dataset adapters, which never import each other's insides except as
# listed. Each world package (belief.envs.<world>) imports the shared base and itself, never another world;
# each agent package imports its own world, the base and the agent protocol.

KERNEL_ALLOWED: dict[str, set[str]] = {
    "belief.errors": set(),
    "belief.files": {"belief.errors"},
    "belief.logic": {"belief.errors", "belief.files", "belief.grammar"},
    "belief.grammar": {"belief.errors", "belief.logic"},
    "belief.examples": {"belief.errors", "belief.logic", "belief.grammar"},
    "belief.truth": {"belief.errors", "belief.files", "belief.grammar", "belief.logic"},
    "belief.grading": {"belief.errors", "belief.files", "belief.grammar", "belief.logic", "belief.truth"},
    "belief.llm": {"belief.errors", "belief.files", "belief.grammar", "belief.logic", "belief.truth",
                   "belief.examples"},
    "belief.adapters": {"belief.errors", "belief.files", "belief.grammar", "belief.logic", "belief.truth",
                        "belief.grading"},
    "belief.testing": {"belief.errors", "belief.files", "belief.grammar", "belief.logic", "belief.truth",
                       "belief.llm"},
    "belief.old_names": set(),
    "belief.stories": {"belief.errors", "belief.grading", "belief.truth"},
}
#: a world package that is built on another world's states (CoordinationQA asks about maze states)
WORLD_SOURCES: dict[str, set[str]] = {"coordqa": {"maze"}}


def package_of(module: str) -> str:
    """``belief.truth.checker`` -> ``belief.truth``; ``belief.envs.bomb.translation`` -> ``belief.envs.bomb``."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] in ("envs", "agents", "app"):
        return ".".join(parts[:3])
    return ".".join(parts[:2])


#: the app's packages bottom to top: a module imports its own rank or lower, never higher (runners play
#: episodes, benches compare agents over the runners' episodes, the command line drives both)
APP_RANKS: dict[str, int] = {"belief.app.runs": 0, "belief.app.results": 0, "belief.app.runners": 1,
                             "belief.app.bench": 2, "belief.app.evaluation": 2, "belief.app.cli": 3, "belief.app.plot": 3, "belief.app.demo": 3}


def package_violations(imports: list[Import]) -> list[str]:
    bad = []
    for imp in imports:
        if imp.unresolved or layer_of(imp.target) is None:
            continue
        src, dst = package_of(imp.module), package_of(imp.target)
        if src == dst or dst == "belief":
            continue
        if src in APP_RANKS and dst in APP_RANKS and APP_RANKS[dst] > APP_RANKS[src]:
            bad.append(f"{imp.module}:{imp.line}: {src} imports {imp.target}, a package above it in the app")
        if src in KERNEL_ALLOWED and layer_of(dst) in ("core", "testing") and dst not in KERNEL_ALLOWED[src]:
            bad.append(f"{imp.module}:{imp.line}: {src} imports {imp.target} ({dst})")
        for kind in ("envs", "agents"):
            prefix = f"belief.{kind}."
            if not src.startswith(prefix):
                continue
            world = src[len(prefix):]
            ok = {"belief.envs", "belief.envs.base", "belief.agents", "belief.agents.protocol",
                  f"belief.envs.{world}", f"belief.agents.{world}"}
            ok |= {f"belief.envs.{w}" for w in WORLD_SOURCES.get(world, ())}
            if kind == "agents" and world == "maze":
                ok.add("belief.envs.coordqa")  # the maze agents answer CoordinationQA questions
            if layer_of(dst) in ("envs", "agents") and dst not in ok:
                bad.append(f"{imp.module}:{imp.line}: {src} imports another world's {imp.target}")
    return bad


def test_packages_import_only_what_they_may(imports):
    assert package_violations(imports) == []


def test_every_kernel_package_is_listed():
    kernel = {package_of(m) for m in module_files() if layer_of(m) in ("core", "testing")} - {"belief"}
    assert kernel - {"belief.__main__"} <= set(KERNEL_ALLOWED), sorted(kernel - set(KERNEL_ALLOWED))


@pytest.mark.parametrize("module, source", [
    ("belief.truth.checker", "from belief.grading.report import grade"),
    ("belief.logic.store", "from belief.truth.trace import Trace"),
    ("belief.files.outputs", "from belief.truth.trace import Trace"),
    ("belief.envs.household.environment", "from belief.envs.transport.world import World"),
    ("belief.agents.bomb.belief", "from belief.envs.hanabi.world import deal"),
    ("belief.agents.bomb.belief", "from belief.agents.hanabi.belief import Agent"),
    ("belief.app.runners.household", "from belief.app.bench.household import bench"),
    ("belief.app.runs.manifest", "from belief.app.runners.bomb import run_episode"),
    ("belief.envs.bomb_v0", "from belief.agents.bomb.belief import Agent"),
])
def test_scanner_flags_package_violations(module, source):
    assert package_violations(_scan({module: source})), source


def test_every_app_package_has_a_rank():
    app = {package_of(m) for m in module_files() if m.startswith("belief.app.")}
    assert app == set(APP_RANKS), sorted(app ^ set(APP_RANKS))


def test_old_names_point_at_real_modules():
    from belief.old_names import OLD_NAMES
    files = module_files()
    for old, new in OLD_NAMES.items():
        assert new in files, (old, new)
        assert old not in files, f"{old} is a real module and an old name"
