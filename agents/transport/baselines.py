"""The agent types of ``transport_v0`` (one :class:`belief.agents.transport.cobel.Config` each).

All share the perception of :mod:`belief.agents.transport.beliefs` (a belief store fed only by what the
agent saw and was told, newer own evidence winning), so only the named ingredient differs:

``cobel``           zero- and first-order beliefs, Bayesian prediction of each teammate's next subgoal,
                    miscoordination detection (yield where the teammate has priority), messages priced by
                    value of information: sent when the frames they are expected to save the teammate
                    exceed their frame cost (agents/transport/messages.py).
``coela``           CoELA-style: no partner model; when it has news (facts not reported, a plan not told)
                    it sends where it is, what it holds, the news and its plan (at most one message every
                    25 frames, 20 fact lines); it leaves to teammates what they announced.
``messenger``       a rule messenger without a partner model: "say what is new, plus my plan" (the news
                    lines and the plan line, same bounds).
``independent``     two of cobel's planners with no partner model and no messages (the same planner and
                    perception as cobel; it only leaves to teammates what it saw them take).
``silent``          CoBel with communication off (it still predicts teammates from what it sees).
``rhp``             RHP+RHP: rule-based hierarchical planners like the study's RHP (greedy: nearest
                    container when empty-handed, nearest known targets up to capacity, else the nearest
                    unsearched room; no partner model, no messages, no UP engine).
``rhp_alone``       RHP alone: one RHP agent in the house.
``cobel_nopred``    ablation: no prediction (hence no detection; messages fall back to nothing predicted).
``cobel_nodetect``  ablation: prediction, but no acting on predicted conflicts (no yields, no plan on conflict).
``cobel_nofo``      ablation: no first-order beliefs (teammates are modelled as knowing what I know).
``cobel_always``    ablation: CoBel decisions, the full progress message before every action.
``cobel_nobbc``     ablation (the study's "without Bayesian belief collaboration"): beliefs kept (zero and first
                    order), but no prediction, no detection, and the rule messenger's messages ("what is new,
                    plus my plan") in place of the value-of-information ones.
``cobel_nopartner`` ablation: no partner model: no first-order beliefs from what teammates perceive and no
                    prediction (hence no detection); messages still priced by value of information.
``cobel+coela``     a mixed team (agents alternate between the two types).
"""

from __future__ import annotations

from belief.agents.transport.cobel import PRESETS, Config, TransportAgent, make_agents

BASELINES = ("coela", "messenger", "independent", "silent", "rhp", "rhp_alone")
ABLATIONS = ("cobel_nobbc", "cobel_nopartner", "cobel_nopred", "cobel_nodetect", "cobel_nofo", "cobel_always")
#: the study's ablations as the bench labels them (``silent`` is cobel with messages off)
STUDY_ABLATIONS = {"cobel_nobbc": "no predict / detect / adaptive messages (the study's no BBC)",
                   "silent": "no messages", "cobel_nopartner": "no partner model"}
MIXED = ("cobel+coela",)
AGENT_TYPES = ("cobel", *BASELINES, *ABLATIONS, *MIXED)
SOLO = ("rhp_alone",)  # types that play with one agent


def is_known(kind: str) -> bool:
    return all(k in PRESETS for k in kind.split("+"))


__all__ = ["ABLATIONS", "AGENT_TYPES", "BASELINES", "Config", "MIXED", "SOLO", "STUDY_ABLATIONS", "TransportAgent", "is_known",
           "make_agents"]
