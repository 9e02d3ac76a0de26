"""A translator declared in a file (TOML or JSON): which environment, domain or scenario, which static facts.

::

    [translator]
    scenario = "sally-anne"          # or env = "bomb", or domain = "tomi" (+ entities)
    fixed = ["basket", "box"]        # objects whose reality facts never change
    static_facts = ["box IN room"]
    max_attempts = 3

``Translator.from_config(TranslatorConfig.load(path), llm)`` builds the translator.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from belief import examples
from belief.logic.domain import Domain
from belief.errors import BeliefError
from belief.logic.formula import Fact
from belief.llm.config import load_mapping
from belief.logic.scenario import load_scenario
from belief.llm.translation_envs import TranslationEnv, env_from_scenario, get_env


class TranslatorConfig(BaseModel):
    """A translator declared in a file (TOML/JSON): an env by name, or a domain + entities, plus static facts.

    ``fixed`` names objects whose reality facts never change (furniture): with a ``scenario``, its reality
    facts about them become static; ``static_facts`` adds more (readable lines). ``closed`` names predicates
    whose every true fact is static (e.g. the map's hallways).
    """

    model_config = ConfigDict(extra="forbid")

    env: Optional[str] = None
    domain: Optional[str] = Field(None, description="an example domain name or a .pddl file")
    scenario: Optional[str] = Field(None, description="an example scenario name or a .pddl file")
    entities: dict[str, str] = Field(default_factory=dict)
    static_facts: list[str] = Field(default_factory=list)
    fixed: list[str] = Field(default_factory=list)
    closed: list[str] = Field(default_factory=list)
    description: str = ""
    max_attempts: int = Field(3, ge=1, le=10)
    mode: Literal["replace", "add"] = "replace"

    def build_env(self) -> TranslationEnv:
        if self.env:
            env = get_env(self.env)
            if self.static_facts or self.entities:
                env = replace(env, entities={**env.entities, **self.entities},
                              static_facts=(*env.static_facts, *(Fact.parse(s) for s in self.static_facts)),
                              closed_predicates=(*env.closed_predicates, *self.closed))
            return env
        if self.scenario:
            p = Path(self.scenario)
            sc = (load_scenario(p.read_text(encoding="utf-8"), source=str(p)) if p.suffix == ".pddl" and p.exists()
                  else examples.scenario(self.scenario))
            env = env_from_scenario(sc, fixed=self.fixed, static=self.static_facts, closed=self.closed,
                                    description=self.description)
            env.entities.update(self.entities)
            return env
        if not self.domain:
            raise BeliefError("translator config needs env, scenario or domain")
        p = Path(self.domain)
        dom = Domain.parse(p.read_text(encoding="utf-8")) if p.exists() else examples.domain(self.domain)
        return TranslationEnv(dom.name, dom, dict(self.entities),
                              tuple(Fact.parse(s) for s in self.static_facts), None,
                              tuple(n for n, t in self.entities.items() if dom.is_subtype(t, "agent")),
                              self.description, tuple(self.closed))

    @classmethod
    def load(cls, path) -> "TranslatorConfig":
        p = Path(path)
        try:
            data = load_mapping(p.read_text(encoding="utf-8"), p)
        except OSError as e:
            raise BeliefError(f"cannot read translator config {p}: {e.strerror or e}") from None
        data = data.get("translator", data) if isinstance(data.get("translator"), dict) else data
        try:
            return cls.model_validate(data)
        except ValidationError as e:
            raise BeliefError(f"{p}: " + "; ".join(
                f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors())) from None


__all__ = ["TranslatorConfig"]
