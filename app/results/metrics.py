"""The metrics each world benchmark reports (name, better direction, unit, range), in one place.

A metric's per-episode value is read from the runner's row under the same name (``None``: not measured)."""

from __future__ import annotations

from belief.app.results.comparison import Metric, share
from belief.grading.report import LEVELS

TRANSPORT = (
    share("transport_rate"),
    Metric("message_tokens", False, "tokens"),
    Metric("comm_frames", False, "frames"),
    Metric("messages", None, "messages"),
    Metric("frames", None, "frames"),
    share("prediction_accuracy"),
    share("persistence_accuracy"),
    Metric("prediction_log_loss", False, "nats"),
    share("belief_accuracy_world"),
    share("belief_accuracy_partner"),
    Metric("miscoordination", False, "events"),
    Metric("miscoordination_true", False, "events"),
    Metric("overlap_events", False, "events"),
    Metric("false_belief_acts", False, "events"),
    share("detection_precision"),
    share("detection_recall"),
    Metric("duplicate_searches", False, "events"),
    Metric("futile_trips", False, "events"),
    Metric("detections", None, "events"),
    Metric("yields", None, "events"),
    Metric("avoided_duplicates", True, "events"),
)

HOUSEHOLD = (
    Metric("steps", False, "steps"),
    share("done_rate"),
    Metric("message_tokens", False, "tokens"),
    Metric("comm_frames", False, "steps"),
    share("prediction_accuracy"),
    share("persistence_accuracy"),
    share("belief_accuracy_world"),
    Metric("detections", None, "events"),
    Metric("yields", None, "events"),
    Metric("avoided_duplicates", True, "events"),
    # ground-truth miscoordination (belief.app.runners.household: the global view), events per episode
    Metric("same_target", False, "events"),
    Metric("lost_fetch", False, "events"),
    Metric("searched_twice", False, "events"),
    Metric("false_belief", False, "events"),
)

#: ToM accuracy per level of each episode's own questions (``tom_<level>``), for the question-asking worlds
TOM = tuple(share(f"tom_{level}") for level in LEVELS)

#: the figures of the episode worlds (``belief run blocks|hanabi|capture|escape``), by name
EPISODE_FIGURES = {m.name: m for m in (
    share("success"), Metric("timesteps", False, "rounds"),
    Metric("balance", True, "gamma", (0.0, 0.5)), Metric("balance_norm", True, "ratio"),
    Metric("score", True, "points", (0.0, 25.0)), Metric("fireworks", True, "cards"),
    Metric("lives_lost", False, "lives"), Metric("turns", None, "turns"),
    share("captured"), share("escaped"), Metric("escaped_players", True, "players"),
    Metric("caught", False, "players"), Metric("messages", None, "messages"),
    share("jp_agreement"),
    share("coordqa_EC"), share("coordqa_ToM"), share("coordqa_JP"),
)}


def episode_metrics(names) -> tuple[Metric, ...]:
    """The :class:`Metric` of each figure name of an episode world."""
    return tuple(EPISODE_FIGURES[n] for n in names)


def tom_figures(row: dict) -> dict:
    """``{tom_<level>: accuracy or None}`` of one episode row holding ``tom_correct`` and ``tom_total``."""
    correct, total = row.get("tom_correct", {}), row.get("tom_total", {})
    return {f"tom_{lvl}": (correct.get(lvl, 0) / total[lvl] if total.get(lvl) else None) for lvl in LEVELS}


__all__ = ["EPISODE_FIGURES", "HOUSEHOLD", "TOM", "TRANSPORT", "episode_metrics", "tom_figures"]
