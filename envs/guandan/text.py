"""The text a Guandan player reads each turn, in the spirit of the Guandan LLM study's prompts: who you are
and your partner, the level and its wild card, your hand, the table to beat, the recent history and the cards
left in each hand."""

from __future__ import annotations

from belief.envs.guandan.cards import RANK_NAMES, card_name, face_name, wild_face
from belief.envs.guandan.combinations import describe

HISTORY_SHOWN = 12
PLACES = ("1st", "2nd", "3rd", "4th")


def play_line(player: str, move) -> str:
    return f"{player}: {describe(move)}"


def observation_text(view: dict) -> str:
    """The text of ``infos[agent]["obs"]`` (:meth:`GuandanEnv.public_view`)."""
    me, partner = view["agent"], view["partner"]
    level = view["level"]
    lines = [f"You are {me}; your partner is {partner} (the other two are your opponents). Deal {view['deal']}.",
             f"Level rank: {RANK_NAMES[level]} (it ranks above the ace; the {face_name(wild_face(level))} cards "
             f"are wild).",
             f"Your hand ({len(view['hand'])} cards): " + " ".join(card_name(c) for c in view["hand"]),
             "Cards left: " + ", ".join(f"{p} {n}" for p, n in view["cards_left"].items()) + "."]
    if view["finished"]:
        lines.append("Finished: " + ", ".join(f"{p} ({PLACES[i]})" for i, p in enumerate(view["finished"])) + ".")
    table = view["table"]
    if view["to_act"] != me:
        lines.append(f"Waiting for {view['to_act']}.")
    elif table is None:
        lines.append("You lead: play any combination.")
    else:
        lines.append(f"Table: {view['table_owner']} played {describe(table)}. Beat it or pass.")
    hist = view["history"][-HISTORY_SHOWN:]
    if hist:
        lines.append("Recent plays: " + "; ".join(play_line(p, m) for p, m in hist) + ".")
    return "\n".join(lines)


__all__ = ["HISTORY_SHOWN", "observation_text", "play_line"]
