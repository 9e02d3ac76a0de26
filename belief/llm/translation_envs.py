"""What a translator knows about one environment, and the registry of environments by name.

Each environment registers a :class:`TranslationEnv` factory under its name: the domain its facts live in,
the known entities, static facts (the map, the tools, fixed furniture: reality that never changes), a
:class:`RuleTranslator` that turns one observation text into facts for one agent (the default,
deterministic path) and optionally a parser for the claims its messages state. The LLM translator
(:mod:`belief.llm.translate`) is used when it is configured and forced, or for the sentences the rules do not
cover (``RuleResult.uncovered``).

Messages are data: a rule translator never turns a teammate's message into the observer's beliefs. Its
:meth:`RuleTranslator.split_messages` takes them out of the text (sender, text) before any translator, rules
or LLM, reads the observation, so the caller routes them through a trust policy
(:func:`belief.llm.messages.receive_message`). An environment's ``grounding`` hook says, for one observation, why
a fact the LLM proposed is not grounded in it (an entity the text never mentions, a teammate's belief about
something that teammate could not see); the translator sends those problems back like any other.

The core never imports an environment: environments register themselves when imported. ``import
belief.envs`` registers ``bomb`` (:mod:`belief.envs.bomb.translation`, the bomb-defusal game of Li et al., 2023).
Register your own::

    register_env("myenv", lambda **kw: TranslationEnv("myenv", domain, entities, static_facts, MyRules()))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

from belief.logic.domain import Domain
from belief.errors import BeliefError
from belief.logic.formula import Believes, Fact
from belief.grammar import parse_fact
from belief.logic.store import BeliefStore


@dataclass
class RuleResult:
    """What the rules made of one text: facts (the observer's own beliefs, any order), the sentences they
    did not understand, and the messages found in the text (never translated into beliefs here)."""

    facts: list[Fact] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)
    messages: list[tuple[str, str]] = field(default_factory=list)
    covered: int = 0

    @property
    def complete(self) -> bool:
        return not self.uncovered


class RuleTranslator:
    """Base class: ``translate(text, agent) -> RuleResult``; ``split_messages`` for texts carrying messages."""

    name = "rules"

    def translate(self, text: str, agent: str) -> RuleResult:  # pragma: no cover - interface
        raise NotImplementedError

    def split_messages(self, text: str) -> tuple[str, list[tuple[str, str]]]:
        """(the observation without its messages, [(sender, message text)]). Default: no messages."""
        return text, []


#: ``grounding(text, agent)`` -> a check of one fact: why it is not grounded in ``text``, or None
Grounding = Callable[[str, str], Callable[[Fact], Optional[str]]]


@dataclass
class TranslationEnv:
    """Everything a translator needs to know about one environment."""

    name: str
    domain: Domain
    entities: dict[str, str]
    static_facts: tuple[Fact, ...] = ()
    rules: Optional[RuleTranslator] = None
    agents: tuple[str, ...] = ()
    description: str = ""  # a short text for LLM prompts: what the world is like
    closed_predicates: tuple[str, ...] = ()  # every true fact of these is static (e.g. the map's hallways)
    #: the env's own reader of messages: text -> readable relations it states (for a trust policy)
    message_facts: Optional[Callable[[str], list[str]]] = None
    #: checks that an LLM's facts are grounded in the observation they were read from (see Grounding)
    grounding: Optional[Grounding] = None

    def split_messages(self, text: str) -> tuple[str, list[tuple[str, str]]]:
        """(observation, messages): messages are data, taken out before any translator reads the text."""
        return self.rules.split_messages(text) if self.rules is not None else (text, [])

    def store(self, agent: str | None = None) -> BeliefStore:
        """An empty BeliefStore over this env's domain and entities (with the agent's static knowledge)."""
        store = BeliefStore(self.domain, self.entities)
        if agent is not None and self.static_facts:
            store.add_all([Fact(Believes(agent, f.formula), f.probability) for f in self.static_facts])
        return store


def env_from_scenario(scenario, *, fixed: Iterable[str] = (), static: Iterable = (), rules=None,
                      closed: Iterable[str] = (), description: str = "") -> TranslationEnv:
    """A TranslationEnv over a :class:`~belief.logic.domain.Scenario`: its domain and entities; as static facts,
    the scenario's reality facts about the ``fixed`` objects (furniture that never moves) plus ``static``."""
    fixed = {f.lower() for f in fixed}
    facts: list[Fact] = []
    for f in scenario.init:
        if not f.chain and f.atom.args and str(f.atom.args[0]).lower() in fixed:
            facts.append(f)
    for f in static:
        facts.append(f if isinstance(f, Fact) else parse_fact(str(f)))
    return TranslationEnv(name=scenario.name, domain=scenario.domain, entities=dict(scenario.entities),
                          static_facts=tuple(facts), rules=rules, agents=tuple(scenario.agents),
                          description=description, closed_predicates=tuple(closed))


# --- the registry ----------------------------------------------------------------------------------
_ENVS: dict[str, Callable[..., TranslationEnv]] = {}


def register_env(name: str, factory: Callable[..., TranslationEnv]) -> None:
    """Make ``get_env(name, **kwargs)`` return ``factory(**kwargs)`` (environments call this when imported)."""
    _ENVS[name] = factory


def env_names() -> list[str]:
    return sorted(_ENVS)


def get_env(name: str, **kwargs) -> TranslationEnv:
    """A registered environment's TranslationEnv (``bomb_v0`` finds ``bomb``). The environment's module must
    have been imported (``import belief.envs`` registers the built-in ones)."""
    key = name.split("_v")[0] if name not in _ENVS else name  # "bomb_v0" -> "bomb"
    try:
        factory = _ENVS[key]
    except KeyError:
        raise BeliefError(f"no translator for env {name!r}; known: {', '.join(env_names()) or 'none'} "
                          f"(environments register when imported: import belief.envs)") from None
    return factory(**kwargs)


__all__ = ["Grounding", "RuleResult", "RuleTranslator", "TranslationEnv", "env_from_scenario", "env_names", "get_env",
           "register_env"]
