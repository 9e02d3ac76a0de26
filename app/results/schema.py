"""The validator of the benchmark JSON shape (:mod:`belief.app.results.comparison`): pydantic at the boundary
where a benchmark's output is read back (``belief plot``, tests, notebooks)."""

from __future__ import annotations

import json
import math

from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from belief.app.results.comparison import ORDERINGS, RESERVED
from belief.errors import BeliefError

Interval = Optional[tuple[float, float]]


INT64 = 2 ** 63


def _finite(x) -> bool:
    """A number a float holds (an integer of thousands of digits does not: OverflowError)."""
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


def _shown(value) -> str:
    """A value for a message, short: a huge integer as its number of digits."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 30:
        return "an integer of more than 30 digits"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(_shown, value)) + "]"
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:80] + "..."


class BenchShapeError(BeliefError):
    """A JSON object that is not a benchmark comparison of the documented shape."""


class MetricSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    higher_is_better: Optional[bool]
    unit: str


class Difference(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mean: Optional[float]
    ci95: Interval
    ordering: str
    n: int

    @model_validator(mode="after")
    def _consistent(self):
        if self.ordering not in ORDERINGS:
            raise ValueError(f"ordering {self.ordering!r} is not one of {', '.join(ORDERINGS)}")
        if self.ci95 is not None and not (self.mean is not None and self.ci95[0] <= self.mean + 1e-9
                                          and self.mean <= self.ci95[1] + 1e-9):
            raise ValueError(f"the interval {list(self.ci95)} does not hold the mean {self.mean}")
        if self.ordering != "no ordering" and (self.ci95 is None or self.ci95[0] <= 0 <= self.ci95[1]):
            raise ValueError(f"ordering {self.ordering!r} without an interval that excludes 0")
        return self


class BenchComparison(BaseModel):
    model_config = ConfigDict(extra="forbid")
    world: str
    headline: str
    episodes: int
    seed: Optional[int]
    metrics: dict[str, MetricSpec]
    by_agent: dict[str, dict[str, Any]]
    diff_vs: dict[str, dict[str, Difference]]
    extra: dict[str, Any]
    # the world-specific top-level keys the issues name (everything else goes in extra)
    by_layout: Optional[dict[str, Any]] = None  # overcooked: the same figures per layout
    matchups: Optional[dict[str, Any]] = None   # guandan: win rates per matchup
    tom: Optional[Any] = None                   # guandan: ToM accuracy by order beside trivial answerers

    @model_validator(mode="after")
    def _consistent(self):
        for name, value in (("episodes", self.episodes), ("seed", self.seed)):
            if value is not None and not -INT64 <= value < INT64:
                raise ValueError(f"{name}: {_shown(value)} does not fit in a signed 64-bit integer")
        names = set(self.metrics)
        if names & set(RESERVED):
            raise ValueError(f"metric names may not be {', '.join(RESERVED)}")
        if self.headline not in self.by_agent:
            raise ValueError(f"the headline agent {self.headline!r} is not in by_agent")
        for agent, figures in self.by_agent.items():
            if set(figures) != names | set(RESERVED):
                raise ValueError(f"by_agent.{agent}: keys {sorted(figures)}, expected the metrics and "
                                 f"{', '.join(RESERVED)}")
            if set(figures["ci95"]) != names or set(figures["n"]) != names:
                raise ValueError(f"by_agent.{agent}: ci95 and n need one entry per metric")
            for m in names:
                mean, ci, n = figures[m], figures["ci95"][m], figures["n"][m]
                if not (isinstance(n, int) and 0 <= n <= figures["episodes"]):
                    raise ValueError(f"by_agent.{agent}.n.{m}: {_shown(n)} is not a count of episodes")
                if mean is not None and (isinstance(mean, bool) or not isinstance(mean, (int, float))
                                         or not _finite(mean)):
                    raise ValueError(f"by_agent.{agent}.{m} must be a finite number, got {_shown(mean)}")
                if (mean is None) != (n == 0):
                    raise ValueError(f"by_agent.{agent}.{m}: {mean!r} with n={n}")
                if ci is not None and not (isinstance(ci, list) and len(ci) == 2 and ci[0] <= mean + 1e-9
                                           and mean <= ci[1] + 1e-9):
                    raise ValueError(f"by_agent.{agent}.ci95.{m}: {_shown(ci)} does not hold the mean {mean}")
        if set(self.diff_vs) != set(self.by_agent) - {self.headline}:
            raise ValueError("diff_vs needs one entry per agent other than the headline")
        for baseline, diffs in self.diff_vs.items():
            if set(diffs) != names:
                raise ValueError(f"diff_vs.{baseline}: one entry per metric expected")
        return self


def validate_bench_json(value: Any, source: str = "benchmark") -> BenchComparison:
    """`value` checked against the benchmark shape; :class:`BenchShapeError` (one line) when it is not."""
    try:
        return BenchComparison.model_validate(value)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise BenchShapeError(f"{source}: not a benchmark comparison: {where}: {first['msg']}") from None


__all__ = ["BenchComparison", "BenchShapeError", "Difference", "MetricSpec", "validate_bench_json"]
