"""Text of the COBLOCK world: the action table (Discrete index <-> move) and an agent's text observation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from belief.envs.blocks.world import CELL_INDEX, CELLS, COLOURS, Cell, cell_text

WAIT, END, MESSAGE = 0, 1, 2
PLACE0 = 3
REMOVE0 = PLACE0 + len(CELLS) * len(COLOURS)
N_ACTIONS = REMOVE0 + len(CELLS)


@dataclass(frozen=True)
class BlockMove:
    kind: str                      # wait | end | message | place | remove
    cell: Optional[Cell] = None
    colour: Optional[str] = None

    def describe(self) -> str:
        if self.kind == "place":
            return f"place a {self.colour} block at {cell_text(self.cell)}"
        if self.kind == "remove":
            return f"remove the block at {cell_text(self.cell)}"
        return {"wait": "wait", "end": "end", "message": "send a message"}[self.kind]


def decode(action: int) -> BlockMove:
    a = int(action)
    if a == WAIT:
        return BlockMove("wait")
    if a == END:
        return BlockMove("end")
    if a == MESSAGE:
        return BlockMove("message")
    if PLACE0 <= a < REMOVE0:
        i, c = divmod(a - PLACE0, len(COLOURS))
        return BlockMove("place", CELLS[i], COLOURS[c])
    if REMOVE0 <= a < N_ACTIONS:
        return BlockMove("remove", CELLS[a - REMOVE0])
    raise ValueError(f"action {a} out of range 0..{N_ACTIONS - 1}")


def place_action(cell: Cell, colour: str) -> int:
    return PLACE0 + CELL_INDEX[tuple(cell)] * len(COLOURS) + COLOURS.index(colour)


def remove_action(cell: Cell) -> int:
    return REMOVE0 + CELL_INDEX[tuple(cell)]


def fact_text(fluent: tuple, value: str) -> str:
    """A message fact in words: 'target(cell_1_0_2) = red' -> 'cell (1, 0, 2) should be red'."""
    pred = fluent[0]
    if pred in ("target", "owner", "block"):
        cell = "(" + ", ".join(fluent[1].split("_")[1:]) + ")"
        return {"target": f"cell {cell} should be {value}", "owner": f"cell {cell} is in {value}'s goal",
                "block": f"cell {cell} holds {value}"}[pred]
    if pred == "inventory":
        return f"{fluent[1]} has {value} {fluent[2]} block(s)"
    return f"{pred}({', '.join(fluent[1:])}) = {value}"


def render(view: dict) -> str:
    lines = [f"Round {view['round']}. You are {view['agent'].capitalize()}."]
    built = view["built"]
    lines.append("Built: " + ("; ".join(f"{cell_text(c)} {col}" for c, col in sorted(built.items())) or "nothing") + ".")
    lines.append("Your goal: " + "; ".join(
        f"{cell_text(c)} {col}" + (" (done)" if built.get(c) == col else "") for c, col in sorted(view["goal"].items())) + ".")
    lines.append("Your blocks: " + (", ".join(f"{n} {c}" for c, n in view["inventory"].items() if n) or "none") + ".")
    if view.get("last_partner"):
        lines.append(f"Your partner's last move: {view['last_partner']}.")
    for sender, facts in view.get("messages", []):
        lines.append(f"{sender.capitalize()} says: " + "; ".join(fact_text(tuple(f), v) for f, v in facts) + ".")
    return "\n".join(lines)


__all__ = ["WAIT", "END", "MESSAGE", "PLACE0", "REMOVE0", "N_ACTIONS", "BlockMove", "decode", "place_action",
           "remove_action", "fact_text", "render"]
