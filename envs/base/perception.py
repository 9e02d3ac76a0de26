"""What every environment does with its trace: append each event to the global trace and hand each agent
the events it perceived (:class:`belief.truth.filter.PrivateTrace`), collected until the agent takes them."""

from __future__ import annotations

from belief.truth.filter import PrivateTrace


class PerceptionLog:
    """Mixin for environments with a global ``self.trace``: call ``_start_perception(agents)`` on reset, log
    events with ``_log``, and let agents read their private traces through ``take_perceived``. With
    ``record_trace`` false (a benchmark that needs no trace) nothing is logged or perceived."""

    record_trace = True

    def _perception_constraints(self):
        """The world's rules (its trace's ``meta["constraints"]``; None: none). They are public, so each agent's
        filter draws conditional observations by elimination as the global check does. Worlds override it."""
        return None

    def _start_perception(self, agents) -> None:
        """Fresh filters, reasoning with :meth:`_perception_constraints`."""
        constraints = self._perception_constraints()
        self._filters = {a: PrivateTrace(a, constraints=constraints) for a in agents}
        self._perceived: dict[str, list] = {a: [] for a in agents}  # (global index, event perceived)

    def _log(self, ev):
        """Append ``ev`` (None: nothing) to the global trace; each agent's filter keeps what it perceived."""
        if ev is None or not self.record_trace:
            return None
        ev = self.trace.append(ev)
        for a, flt in self._filters.items():
            self._perceived[a].extend((ev.t, p) for p in flt.perceive(ev))
        return ev

    def take_perceived(self, agent: str, upto: int | None = None) -> list:
        """The events ``agent`` perceived since the last call, masked as it perceived them: the structured
        observation a belief tracker reads (its private trace), never anything it did not see, hear or
        witness. ``upto``: only what it perceived of the global trace's events up to that index (the rest
        stays for a later call), e.g. to answer a question asked after event ``upto``."""
        pending = self._perceived[agent]
        n = len(pending) if upto is None else sum(1 for t, _ in pending if t <= upto)
        self._perceived[agent] = pending[n:]
        return [p for _, p in pending[:n]]
