"""Messages between ``household_v0`` agents: facts, seen receptacles and a plan, one per line.

``cupcake_1 IN fridge_1`` lines are world facts (the env turns them into the ``tell`` event, so the
trust policy governs them, and the recipient's record receives them as perceived events); a
``checked: fridge_1, sofa_1`` line lists receptacles the sender has seen (their goal objects are in
the facts); ``plan: fetch cupcake_1`` states the sender's subgoal. Other lines (CoELA-style progress)
are free text.
"""

from __future__ import annotations

import re

PLAN_RE = re.compile(r"^\s*plan:\s*(fetch|deliver|explore|wait)\s*(\S*)\s*$")
CHECKED_RE = re.compile(r"^\s*checked:\s*(.*)$")


def compose(facts=(), checked=(), plan=None, preamble=()) -> str:
    lines = list(preamble)
    lines += [f"{o} IN {loc}" for o, loc in facts]
    if checked:
        lines.append("checked: " + ", ".join(sorted(checked)))
    if plan is not None:
        lines.append(f"plan: {plan[0]} {plan[1] or ''}".rstrip())
    return "\n".join(lines)


def read(text: str):
    """``(plan or None, set of checked receptacles)`` stated in a message."""
    plan, checked = None, set()
    for line in (text or "").splitlines():
        m = PLAN_RE.match(line)
        if m:
            plan = (m.group(1), m.group(2) or None)
            continue
        m = CHECKED_RE.match(line)
        if m:
            checked |= {x.strip() for x in m.group(1).split(",") if x.strip()}
    return plan, checked


__all__ = ["compose", "read"]
