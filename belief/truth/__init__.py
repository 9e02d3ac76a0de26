"""The truth: the trace (events, JSONL), its replay into per-fluent updates (:mod:`~belief.truth.index`),
exact answers for any perspective chain (:mod:`~belief.truth.ground`), the checker entry point
(:mod:`~belief.truth.checker`), the same truth online (:mod:`~belief.truth.tracker`), each agent's private view
(:mod:`~belief.truth.filter`) and record (:mod:`~belief.truth.record`), and explanations
(:mod:`~belief.truth.explain`).

``from belief.truth import GroundTruth, TruthAnswer, ...`` keeps working as when this was one module.
"""

from belief.truth.ground import OPAQUE, UNSURE, GroundTruth, Provenance, TruthAnswer, fluent_of

__all__ = ["TruthAnswer", "GroundTruth", "Provenance", "fluent_of", "UNSURE", "OPAQUE"]
