"""Trust policies: what a message does to the perspective chains.

A policy turns one message event (``tell`` or ``announce``) into *effects*:

- :class:`GroupEffect`: every chain over ``agents`` now holds ``value`` (like a shared observation),
  optionally except the solo chain of one agent (a speaker's own belief is not changed by speaking);
- :class:`ChainEffect`: exactly one perspective chain now holds ``value``.

Policies are pure: they read the message and a :class:`PolicyContext` (who hears it, who was in the
chapter, exit order) and return effects; the checker applies them. Register your own with
:func:`register_policy` and pass its name (or an instance) to ``check(trace, policy=...)``.

Built in:

``strict-truthful``
    Senders are truthful and trusted: the recipients (for a public message, everyone hearing it) and
    the sender come to share the content like a joint observation -- every chain over
    ``{sender} | recipients`` holds it -- except the sender's own first-order belief, which speaking does
    not change. In particular recipients believe the content and the sender knows they do.

``hitom``
    Reproduces Hi-ToM's labelling (see docs/logic.md, "Trust policies"):

    - public claim by S that O is in C: the *believers* are the listeners who exited the room before S in
      that chapter, plus listeners who were not in that chapter. For each believer B: B believes C,
      "B thinks S thinks" C, "S thinks B thinks" C. For every other listener D != S only
      "S thinks D thinks" C.
    - private tell S -> L that O is in C: L trusts S iff L exited earlier than S in that chapter or L was
      not in it. If trusted: L believes C and "L thinks S thinks" C. Always: "S thinks L thinks" C.
    - no other chain changes.

    "That chapter" is the message's ``chapter`` field, or else the latest chapter of the trace. A sender
    who was not in the chapter is treated as knowing less than every participant (only non-participants
    trust it); a participant who never exited counts as exiting last.

``skeptical``
    Listeners learn only that the sender holds the claim (``L BELIEVE S BELIEVE x``), never the claim
    itself; nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Optional, Protocol, Sequence, TypeVar, Union, overload

from belief.errors import BeliefError


class PolicyError(BeliefError):
    """An unknown or malformed trust policy."""


@dataclass(frozen=True)
class GroupEffect:
    agents: frozenset
    fluent: tuple
    value: Optional[str]
    except_solo: Optional[str] = None


@dataclass(frozen=True)
class ChainEffect:
    chain: tuple
    fluent: tuple
    value: Optional[str]


Effect = Union[GroupEffect, ChainEffect]


class Claim(Protocol):
    """What a message claims (:class:`belief.truth.trace.Content`): its fluent has its value."""

    @property
    def fluent(self) -> tuple[str, ...]: ...

    @property
    def value(self) -> Optional[str]: ...


class Message(Protocol):
    """A message event (``tell`` or ``announce`` of :mod:`belief.truth.trace`), as a policy reads it."""

    @property
    def content(self) -> Sequence[Claim]: ...


@dataclass(frozen=True)
class PolicyContext:
    """What a policy may know when a message is sent."""

    sender: str
    listeners: tuple  # everyone who receives/hears the message, sender excluded, in a stable order
    public: bool
    chapter: Optional[int]
    participants: frozenset = field(default_factory=frozenset)  # agents who entered the chapter's room
    exit_rank: dict = field(default_factory=dict)  # agent -> order of its first exit in the chapter

    def exited_before(self, a: str, b: str) -> bool:
        """True iff ``a`` left the chapter's room before ``b`` (a participant who never left exits last)."""
        inf = float("inf")
        return self.exit_rank.get(a, inf) < self.exit_rank.get(b, inf)

    def in_chapter(self, a: str) -> bool:
        return a in self.participants


class TrustPolicy:
    """Base class. Subclasses set ``name`` and implement :meth:`effects`."""

    name: str = "custom"
    #: senders say only what they know: a true message counts as its sender's own sighting when others
    #: ask whether the sender knows (awareness, docs/logic.md)
    senders_know: bool = False
    #: every claim is one group effect on the sender and its listeners, the sender's own solo chain excluded
    #: (what :class:`StrictTruthful` yields), whatever the context: the replay then writes those updates
    #: without asking :meth:`effects`. A subclass that overrides :meth:`effects` and does not set this again
    #: gets False (:meth:`__init_subclass__`), so an inherited True never hides its own effects.
    group_claims: bool = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "effects" in cls.__dict__ and "group_claims" not in cls.__dict__:
            cls.group_claims = False

    def effects(self, event: Message, ctx: PolicyContext) -> Iterable[Effect]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<TrustPolicy {self.name}>"


class StrictTruthful(TrustPolicy):
    name = "strict-truthful"
    senders_know = True
    group_claims = True

    def effects(self, event: Message, ctx: PolicyContext) -> Iterator[Effect]:
        group = frozenset((ctx.sender, *ctx.listeners))
        for c in event.content:
            yield GroupEffect(group, c.fluent, c.value, except_solo=ctx.sender)


class HiToM(TrustPolicy):
    name = "hitom"

    def _trusts(self, listener: str, ctx: PolicyContext) -> bool:
        if not ctx.in_chapter(listener):
            return True
        if not ctx.in_chapter(ctx.sender):
            return False
        return ctx.exited_before(listener, ctx.sender)

    def effects(self, event: Message, ctx: PolicyContext) -> Iterator[Effect]:
        """The same for a public claim and a private one: each listener but the sender who trusts the sender
        believes the claim and that the sender does; the sender believes each listener does."""
        s = ctx.sender
        for c in event.content:
            f, v = c.fluent, c.value
            for listener in ctx.listeners:
                if listener == s:
                    continue
                if self._trusts(listener, ctx):
                    yield ChainEffect((listener,), f, v)
                    yield ChainEffect((listener, s), f, v)
                yield ChainEffect((s, listener), f, v)


class Skeptical(TrustPolicy):
    """A listener only learns that the sender believes the claim (``L BELIEVE S BELIEVE x``), never the claim."""

    name = "skeptical"

    def effects(self, event: Message, ctx: PolicyContext) -> Iterator[Effect]:
        for c in event.content:
            for listener in ctx.listeners:
                if listener != ctx.sender:
                    yield ChainEffect((listener, ctx.sender), c.fluent, c.value)


_REGISTRY: dict[str, Callable[[], TrustPolicy]] = {}
_Factory = TypeVar("_Factory", bound=Callable[[], TrustPolicy])


@overload
def register_policy(name: str, factory: _Factory) -> _Factory: ...


@overload
def register_policy(name: str, factory: None = None) -> Callable[[_Factory], _Factory]: ...


def register_policy(name: str, factory: Callable[[], TrustPolicy] | None = None
                    ) -> Callable[[], TrustPolicy] | Callable[[_Factory], _Factory]:
    """Register a policy factory (a class or a zero-argument callable) under ``name``.

    Usable as a decorator: ``@register_policy("gullible") class Gullible(TrustPolicy): ...``.
    """

    def deco(f: _Factory) -> _Factory:
        _REGISTRY[name] = f
        return f

    return deco(factory) if factory is not None else deco


def policy_names() -> list[str]:
    return sorted(_REGISTRY)


def get_policy(policy: Union[str, TrustPolicy, None]) -> TrustPolicy:
    if policy is None:
        policy = "strict-truthful"
    if isinstance(policy, TrustPolicy):
        return policy
    if isinstance(policy, str):
        try:
            return _REGISTRY[policy]()
        except KeyError:
            raise PolicyError(f"unknown trust policy {policy!r}; known: {', '.join(policy_names())}") from None
    if hasattr(policy, "effects"):
        return policy  # duck-typed policy object
    raise PolicyError(f"not a trust policy: {policy!r}")


register_policy("strict-truthful", StrictTruthful)
register_policy("hitom", HiToM)
register_policy("skeptical", Skeptical)

__all__ = ["ChainEffect", "GroupEffect", "HiToM", "PolicyContext", "PolicyError", "Skeptical", "StrictTruthful",
           "TrustPolicy", "get_policy", "policy_names", "register_policy"]
