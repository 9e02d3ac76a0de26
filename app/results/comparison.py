"""The one JSON shape of every world benchmark: the headline agent against each baseline on paired seeds.

:func:`compare` takes per-episode results ``{agent: [row, ...]}`` (each row a dict holding the pairing key,
``seed`` by default, and a number or ``None`` per metric; ``None``: not measured in that episode, e.g. the
prediction accuracy of an agent that predicts nothing) and builds::

    {"world": "household_v0", "headline": "cobel", "episodes": 50, "seed": 0,
     "metrics": {metric: {"higher_is_better": true | false | null, "unit": "steps"}},
     "by_agent": {agent: {metric: mean | null, ..., "ci95": {metric: [lo, hi] | null}, "n": {metric: n},
                          "episodes": n}},
     "diff_vs": {baseline: {metric: {"mean": headline - baseline | null, "ci95": [lo, hi] | null,
                                     "ordering": "headline better", "n": paired episodes}}},
     "extra": {...world-specific figures...}}

Means are over the episodes that measured the metric, with Student-t 95% intervals
(:func:`belief.grading.stats.mean_ci95`; a metric with ``bounds``, e.g. a share, keeps its interval inside
them). Differences are paired by seed (:func:`belief.grading.stats.paired_diff_ci95`) over the seeds where both
agents measured the metric; an ordering is stated only when the interval excludes 0, and it says which agent
is better given ``higher_is_better`` (``"headline higher"`` / ``"headline lower"`` for a metric with no better
direction). Fewer than two paired values give no interval and ``"no ordering"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from belief.errors import BeliefError
from belief.grading.stats import mean_ci95, paired_diff_ci95

RESERVED = ("ci95", "n", "episodes")  # keys of by_agent[agent] that are not metrics
NO_ORDERING = "no ordering"
ORDERINGS = ("headline better", "baseline better", "headline higher", "headline lower", NO_ORDERING)


@dataclass(frozen=True)
class Metric:
    """A per-episode figure: its name, which way is better (``None``: neither), its unit and its range."""

    name: str
    higher_is_better: bool | None
    unit: str
    bounds: tuple[float, float] | None = None

    def spec(self) -> dict:
        return {"higher_is_better": self.higher_is_better, "unit": self.unit}


def share(name: str, higher_is_better: bool | None = True) -> Metric:
    """A per-episode share in [0, 1] (a rate, an accuracy, a 0/1 outcome)."""
    return Metric(name, higher_is_better, "share", (0.0, 1.0))


def _number(value, agent: str, metric: str):
    if value is None:
        return None
    if isinstance(value, bool):
        return float(value)
    if not isinstance(value, (int, float)):
        raise BeliefError(f"compare: {agent}'s {metric} is {value!r}, expected a number or None")
    return float(value)


def _values(rows, agent: str, metric: str, pair_key: str) -> dict:
    """``{seed: value}`` of the episodes that measured `metric`."""
    out = {}
    for r in rows:
        if pair_key not in r:
            raise BeliefError(f"compare: a row of {agent} has no {pair_key!r} to pair episodes by")
        v = _number(r.get(metric), agent, metric)
        if v is not None:
            out[r[pair_key]] = v
    return out


def _orderings(metric: Metric) -> tuple[str, str]:
    """The orderings when the difference headline - baseline is above / below 0."""
    if metric.higher_is_better is None:
        return "headline higher", "headline lower"
    if metric.higher_is_better:
        return "headline better", "baseline better"
    return "baseline better", "headline better"


def agent_figures(rows: Sequence[Mapping], metrics: Sequence[Metric], agent: str = "agent",
                  pair_key: str = "seed") -> dict:
    """``{metric: mean, ..., "ci95": {metric: [lo, hi]}, "n": {metric: n}, "episodes": n}`` of one agent."""
    out: dict = {}
    ci95: dict = {}
    n: dict = {}
    for m in metrics:
        values = list(_values(rows, agent, m.name, pair_key).values())
        n[m.name] = len(values)
        if not values:
            out[m.name], ci95[m.name] = None, None
            continue
        mean, (lo, hi) = mean_ci95(values, bounds=m.bounds)
        out[m.name], ci95[m.name] = mean, [lo, hi] if len(values) > 1 else None
    return {**out, "ci95": ci95, "n": n, "episodes": len(rows)}


def paired_difference(headline_rows, baseline_rows, metric: Metric, names=("headline", "baseline"),
                      pair_key: str = "seed") -> dict:
    """``{"mean", "ci95", "ordering", "n"}`` of headline - baseline on the seeds both measured."""
    a = _values(headline_rows, names[0], metric.name, pair_key)
    b = _values(baseline_rows, names[1], metric.name, pair_key)
    seeds = [s for s in a if s in b]
    if not seeds:
        return {"mean": None, "ci95": None, "ordering": NO_ORDERING, "n": 0}
    xs, ys = [a[s] for s in seeds], [b[s] for s in seeds]
    mean, (lo, hi) = paired_diff_ci95(xs, ys)
    if len(seeds) < 2:
        return {"mean": mean, "ci95": None, "ordering": NO_ORDERING, "n": 1}
    above, below = _orderings(metric)
    order = above if lo > 0 else below if hi < 0 else NO_ORDERING
    return {"mean": mean, "ci95": [lo, hi], "ordering": order, "n": len(seeds)}


def compare(world: str, results: Mapping[str, Sequence[Mapping]], metrics: Sequence[Metric], headline: str,
            *, seed: int | None = None, pair_key: str = "seed", extra: Mapping | None = None) -> dict:
    """The benchmark JSON object (see the module doc) of `results` ``{agent: [per-episode row]}``."""
    names = [m.name for m in metrics]
    clash = [n for n in names if n in RESERVED]
    if clash or len(set(names)) != len(names):
        raise BeliefError(f"compare: metric names must be distinct and not {', '.join(RESERVED)}: {names}")
    if headline not in results:
        raise BeliefError(f"compare: the headline agent {headline!r} has no results (agents: {', '.join(results)})")
    by_agent = {agent: agent_figures(rows, metrics, agent, pair_key) for agent, rows in results.items()}
    diff_vs = {agent: {m.name: paired_difference(results[headline], rows, m, (headline, agent), pair_key)
                       for m in metrics}
               for agent, rows in results.items() if agent != headline}
    episodes = len({r[pair_key] for rows in results.values() for r in rows})
    return {"world": world, "headline": headline, "episodes": episodes, "seed": seed,
            "metrics": {m.name: m.spec() for m in metrics}, "by_agent": by_agent, "diff_vs": diff_vs,
            "extra": dict(extra or {})}


def headline_of(agents: Sequence[str], preferred: str) -> str:
    """`preferred` when it was played, else the first agent."""
    if not agents:
        raise BeliefError("compare: no agents")
    return preferred if preferred in agents else agents[0]


__all__ = ["Metric", "NO_ORDERING", "ORDERINGS", "RESERVED", "agent_figures", "compare", "headline_of",
           "paired_difference", "share"]
