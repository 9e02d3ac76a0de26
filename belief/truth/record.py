"""One agent's private record: the events it perceived, in the trace vocabulary, and the checker's answers on
them, kept up to date event by event.

Every agent that reasons about beliefs holds one: it adds what the environment hands it
(``env.take_perceived(agent)``, a :class:`~belief.truth.filter.PrivateTrace`'s output) and asks the checker on
its own record, never on the global trace. The record is a :class:`~belief.truth.tracker.Tracker` over a
private trace (``meta["private_to"]``: the owner's own beliefs stand for reality), so asking after every
perception costs what the new events cost, not a re-check of everything perceived so far.

    record = PrivateRecord("alice")
    record.add(env.take_perceived("alice"))
    record.held(("alice", "bob"), ("in", "apple"))   # what alice thinks bob thinks, or None
    record.truth().knows_chain(("bob",), ("in", "apple"))
"""

from __future__ import annotations

from typing import Iterable, Optional

from belief.truth.ground import GroundTruth
from belief.truth.index import is_marker
from belief.truth.trace import Trace
from belief.truth.tracker import Tracker


class PrivateRecord:
    """The events ``owner`` perceived and the exact truth of them (``truth()``, any chain, any time)."""

    def __init__(self, owner: str, policy="strict-truthful", *, meta: Optional[dict] = None):
        self.owner = owner
        self.tracker = Tracker(policy, meta={**(meta or {}), "private_to": owner})

    @property
    def trace(self) -> Trace:
        """The private trace so far (read only: add events through :meth:`add`)."""
        return self.tracker.trace

    def __len__(self) -> int:
        return len(self.tracker.trace)

    def add(self, events: Iterable) -> list:
        """Append perceived events (they keep their content; ``t`` becomes their index in this record)."""
        append = self.tracker.append
        return [append(ev, renumber=True) for ev in events]

    def add_one(self, event, **update):
        """Append one event with some fields replaced (e.g. the values masked); returns it as stored."""
        n = len(self.tracker.trace)
        return self.tracker.append(event.model_copy(update={**update, "t": n}))

    def truth(self) -> GroundTruth:
        """The checker's truth of the record so far (cheap; the same object until the next event)."""
        return self.tracker.truth()

    def value(self, chain, fluent):
        """The value ``chain`` holds for ``fluent`` now (None: never seen; a marker: unsure / unseen)."""
        return self.tracker.value(chain, fluent)

    def held(self, chain, fluent) -> Optional[str]:
        """The definite value ``chain`` holds for ``fluent``, or None (never seen, unsure or unseen)."""
        v = self.tracker.value(chain, fluent)
        return None if v is None or is_marker(v) else v

    def knows_chain(self, chain, fluent) -> bool:
        return self.tracker.knows_chain(chain, fluent)


__all__ = ["PrivateRecord"]
