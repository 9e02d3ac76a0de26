"""Import names from before the kernel, the worlds and the agents became packages: deprecated, kept working
for one release.

``import belief.checker`` gives the module :mod:`belief.truth.checker` itself (the same object, not a copy)
and warns (``DeprecationWarning``, naming the new name), and so for every name in :data:`OLD_NAMES`. The
versioned environment names (``belief.envs.bomb_v0``, as in PettingZoo) are not old names: they are current,
served by :mod:`belief.envs.versions`. The table is read only when such a name is imported: nothing here
imports a world, an agent or an application until a user asks for one by its old name. The project's own
code, tests, docs and CI use the new names only (``tests/test_layers.py`` checks it).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

#: old module name -> the module that holds its code now
OLD_NAMES: dict[str, str] = {
    "belief.agents.blocks_baseline": "belief.agents.blocks.baseline",
    "belief.agents.blocks_belief": "belief.agents.blocks.belief",
    "belief.agents.blocks_common": "belief.agents.blocks.common",
    "belief.agents.blocks_oracle": "belief.agents.blocks.oracle",
    "belief.agents.bomb_belief": "belief.agents.bomb.belief",
    "belief.agents.bomb_llm": "belief.agents.bomb.llm",
    "belief.agents.bomb_planner": "belief.agents.bomb.planner",
    "belief.agents.bomb_random": "belief.agents.bomb.random_agent",
    "belief.agents.hanabi_belief": "belief.agents.hanabi.belief",
    "belief.agents.hanabi_hintless": "belief.agents.hanabi.hintless",
    "belief.agents.hanabi_knowledge": "belief.agents.hanabi.knowledge",
    "belief.agents.household_agent": "belief.agents.household.agent",
    "belief.agents.household_cobel": "belief.agents.household.cobel",
    "belief.agents.household_coela": "belief.agents.household.coela",
    "belief.agents.household_memory": "belief.agents.household.memory",
    "belief.agents.household_messages": "belief.agents.household.messages",
    "belief.agents.household_mhp": "belief.agents.household.mhp",
    "belief.agents.household_predict": "belief.agents.household.predict",
    "belief.agents.household_team": "belief.agents.household.team",
    "belief.agents.maze_baseline": "belief.agents.maze.baseline",
    "belief.agents.maze_belief": "belief.agents.maze.belief",
    "belief.agents.maze_tracking": "belief.agents.maze.tracking",
    "belief.agents.transport_baselines": "belief.agents.transport.baselines",
    "belief.agents.transport_beliefs": "belief.agents.transport.beliefs",
    "belief.agents.transport_cobel": "belief.agents.transport.cobel",
    "belief.agents.transport_llm": "belief.agents.transport.llm",
    "belief.agents.transport_messages": "belief.agents.transport.messages",
    "belief.agents.transport_partner": "belief.agents.transport.partner",
    "belief.agents.transport_planner": "belief.agents.transport.planner",
    "belief.answer_reading": "belief.grading.answers",
    "belief.app.bench.comparison": "belief.app.results.comparison",
    "belief.app.bench.metrics": "belief.app.results.metrics",
    "belief.app.bench.schema": "belief.app.results.schema",
    "belief.app.bench.tables": "belief.app.results.tables",
    "belief.app.bench_checker": "belief.app.bench.checker",
    "belief.app.bench_parse": "belief.app.bench.parse",
    "belief.app.blocks_runner": "belief.app.runners.blocks",
    "belief.app.bomb_run": "belief.app.runners.bomb_run_dir",
    "belief.app.bomb_runner": "belief.app.runners.bomb",
    "belief.app.grade_shards": "belief.app.runs.grade_shards",
    "belief.app.hanabi_runner": "belief.app.runners.hanabi",
    "belief.app.household_bench": "belief.app.bench.household",
    "belief.app.maze_runner": "belief.app.runners.maze",
    "belief.app.plot_data": "belief.app.plot.data",
    "belief.app.progress": "belief.app.runs.progress",
    "belief.app.tom_shards": "belief.app.runs.tom_shards",
    "belief.app.transport_bench": "belief.app.bench.transport",
    "belief.atomic_files": "belief.files.atomic",
    "belief.checker": "belief.truth.checker",
    "belief.domain": "belief.logic.domain",
    "belief.envs.blocks.rules": "belief.envs.blocks.world",
    "belief.envs.blocks_events": "belief.envs.blocks.events",
    "belief.envs.blocks_tasks": "belief.envs.blocks.tasks",
    "belief.envs.blocks_text": "belief.envs.blocks.text",
    "belief.envs.blocks_tom": "belief.envs.blocks.tom",
    "belief.envs.blocks_world": "belief.envs.blocks.world",
    "belief.envs.bomb.map": "belief.envs.bomb.world",
    "belief.envs.bomb.rules": "belief.envs.bomb.translation",
    "belief.envs.bomb_domain": "belief.envs.bomb.domain",
    "belief.envs.bomb_events": "belief.envs.bomb.events",
    "belief.envs.bomb_grading": "belief.envs.bomb.grading",
    "belief.envs.bomb_map": "belief.envs.bomb.world",
    "belief.envs.bomb_rules": "belief.envs.bomb.translation",
    "belief.envs.bomb_text": "belief.envs.bomb.text",
    "belief.envs.bomb_tom": "belief.envs.bomb.tom",
    "belief.envs.guandan.deal": "belief.envs.guandan.world",
    "belief.envs.hanabi.rules": "belief.envs.hanabi.world",
    "belief.envs.hanabi_events": "belief.envs.hanabi.events",
    "belief.envs.hanabi_rules": "belief.envs.hanabi.world",
    "belief.envs.hanabi_tom": "belief.envs.hanabi.tom",
    "belief.envs.household_text": "belief.envs.household.text",
    "belief.envs.household_world": "belief.envs.household.world",
    "belief.envs.maze_env": "belief.envs.maze.environment",
    "belief.envs.maze_events": "belief.envs.maze.events",
    "belief.envs.maze_world": "belief.envs.maze.world",
    "belief.envs.overcooked.engine": "belief.envs.overcooked.world",
    "belief.envs.perception": "belief.envs.base.perception",
    "belief.envs.text_spaces": "belief.envs.base.spaces",
    "belief.envs.tom_labels": "belief.envs.base.labels",
    "belief.envs.transport_tokens": "belief.envs.base.tokens",
    "belief.envs.transport_world": "belief.envs.transport.world",
    "belief.executor": "belief.app.runs.executor",
    "belief.explain": "belief.truth.explain",
    "belief.filter": "belief.truth.filter",
    "belief.formula": "belief.logic.formula",
    "belief.grade_io": "belief.grading.files",
    "belief.grade_questions": "belief.grading.questions",
    "belief.json_input": "belief.files.json_input",
    "belief.llm_client": "belief.llm.client",
    "belief.llm_http": "belief.llm.http",
    "belief.messages": "belief.llm.messages",
    "belief.outputs": "belief.files.outputs",
    "belief.policies": "belief.logic.policies",
    "belief.run_manifest": "belief.app.runs.manifest",
    "belief.scenario": "belief.logic.scenario",
    "belief.stats": "belief.grading.stats",
    "belief.store": "belief.logic.store",
    "belief.trace": "belief.truth.trace",
    "belief.trace_types": "belief.truth.typed_trace",
    "belief.translate": "belief.llm.translate",
    "belief.translate_config": "belief.llm.translator_config",
    "belief.translate_env": "belief.llm.translation_envs",
    "belief.translate_prompts": "belief.llm.prompts",
    "belief.truth_index": "belief.truth.index",
}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str):
        self.target = target
        self.real_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"the module name {spec.name!r} is deprecated and goes in the next release: import "
                      f"{self.target!r}", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(self.target)
        self.real_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import system stamped the alias's spec on the module: give it back its own
        module.__spec__ = self.real_spec


class OldNameFinder(importlib.abc.MetaPathFinder):
    """Finds an old module name and hands out the module that replaced it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = OLD_NAMES.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(f, OldNameFinder) for f in sys.meta_path):
        sys.meta_path.append(OldNameFinder())
