"""What the partner has seen, for a chef that sees it only now and then (partial view): a Bayes filter over the
partner's cell while it is out of sight and, per fluent of the kitchen, the value the partner last saw there.

The rules are public: every chef sees the cells within ``fov`` steps (Chebyshev distance) of its own, and itself;
a chef sees a change when it sees the changed cell before or after the step. So the chef that keeps a distribution
over where its partner is can say how likely the partner has seen a fluent since its last change. The state is,
per tracked fluent (a pot, a counter, the chef's own place and hand) and per value ``v`` (or ``None``: never seen),
the mass of the partner's cells from which it last saw ``v``; over the values these sum to the distribution of
the partner's cell. One step of the kitchen (:meth:`PartnerSight.step`):

1. the changes the chef saw (or made): the partner sees one when it sees the cell before the step, so the mass
   on the cells that see the old place moves to the new value;
2. the partner moves: the mass moves by the motion model (``transition``: a random walk over the floor, staying
   or stepping to each free neighbour alike, or one steered by the chef's posterior over the partner's subgoal);
3. evidence of the partner's hand: a change of a pot or counter the chef saw and did not make (nor the pot's own
   clock) was made by the partner, who stands next to it: the cells are conditioned on those spots;
4. the chef's own view: a partner seen at a cell is there (the mass collapses onto it); a partner not seen is not
   in any cell the chef sees (that mass is dropped, the rest renormalised);
5. the partner sees what is in its sight now: the mass on the cells that see a fluent moves to its value.

``knows(f)`` is then the probability that the value the partner last saw of ``f`` is the one the chef believes
it holds now: "Does Bob know what is on the counter at (1, 3)?" is yes when that is at least one half.
A change the chef learns of only later (a counter it finds changed when it comes into sight) was the partner's
own (:meth:`PartnerSight.made_by_partner`): the partner knows its value.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Optional

import numpy as np

from belief.envs.overcooked.events import sees

Cell = tuple
#: the random walk's chance of standing still a step (None: as likely as each free neighbour); chefs often wait,
#: and 0.5 answered a little better than the uniform walk or 0.8 at fov=1 (not the bench's fov=2), where the
#: partner is out of sight far more often
STAY: Optional[float] = 0.5


class PartnerSight:
    """The filter of one chef about its partner (see the module docstring). ``start``: the partner's cell at the
    start (the layout's, public), or None (anywhere on the floor)."""

    def __init__(self, floor: Iterable[Cell], neighbours: Mapping[Cell, Iterable[Cell]], fov: int,
                 start: Optional[Cell] = None):
        self.cells = sorted(floor)
        self.index = {c: i for i, c in enumerate(self.cells)}
        self.fov = fov
        self.neighbours = {c: [q for q in neighbours.get(c, ()) if q in self.index] for c in self.cells}
        n = len(self.cells)
        self.p = np.zeros(n)
        if start is not None and start in self.index:
            self.p[self.index[start]] = 1.0
        else:
            self.p[:] = 1.0 / n
        self.mass: dict[tuple, dict] = {}   # fluent -> {value last seen: mass vector}
        self.where: dict[tuple, Cell] = {}  # fluent -> the cell it is seen at
        self.value: dict[tuple, object] = {}  # fluent -> the value the chef believes it has now
        self._sight: dict[Cell, np.ndarray] = {}
        self.walk = random_walk(self.cells, self.neighbours, STAY)

    # --- the model -------------------------------------------------------------------------------------
    def sight(self, target: Cell) -> np.ndarray:
        """1.0 on the cells from which a chef sees ``target``, else 0.0."""
        s = self._sight.get(target)
        if s is None:
            s = self._sight[target] = np.array([float(sees(c, target, self.fov)) for c in self.cells])
        return s

    def track(self, fluent: tuple, where: Cell, value) -> None:
        """Follow ``fluent`` (at ``where``, believed to be ``value``): the partner has not seen it yet, except
        from where it may stand now."""
        self.mass[fluent] = {None: self.p.copy()}
        self.where[fluent] = where
        self.value[fluent] = value
        self._see(fluent)

    def _move_to(self, fluent: tuple, value, weight: np.ndarray) -> None:
        """Move the share ``weight`` (per cell, 0..1) of every value's mass of ``fluent`` to ``value``."""
        m = self.mass[fluent]
        moved = np.zeros_like(self.p)
        for v in list(m):
            if v == value:
                continue
            part = m[v] * weight
            m[v] = m[v] - part
            moved += part
        m[value] = m.get(value, np.zeros_like(self.p)) + moved

    def _see(self, fluent: tuple) -> None:
        self._move_to(fluent, self.value[fluent], self.sight(self.where[fluent]))

    def step(self, changes: Mapping[tuple, tuple], *, transition: Optional[np.ndarray] = None,
             partner_at: Optional[Cell] = None, my_view: Optional[Cell] = None,
             partner_hand: Iterable[Cell] = ()) -> None:
        """One step of the kitchen, in the order of the module docstring. ``changes``: fluent -> (new place,
        new value) for the tracked fluents that changed (value or place) and that the chef saw or made;
        ``transition``: the motion model (rows: from, columns: to; default the random walk); ``partner_at``:
        where the chef sees its partner now (None: not in sight), ``my_view``: the chef's own cell (what it
        sees: the cells within ``fov`` of it); ``partner_hand``: the spots of the features the partner has
        just changed (it stands at one)."""
        for f, (where, value) in changes.items():
            if f not in self.mass:
                continue
            old = self.where[f]
            if value != self.value[f]:
                self._move_to(f, value, self.sight(old))  # 1. watched from before the step
            self.where[f], self.value[f] = where, value
        t = self.walk if transition is None else transition
        self.p = self.p @ t  # 2. the partner moves
        for m in self.mass.values():
            for v in m:
                m[v] = m[v] @ t
        hand = [c for c in partner_hand if c in self.index]
        if hand:  # 3. it stands where it made its change
            w = np.zeros_like(self.p)
            w[[self.index[c] for c in hand]] = 1.0
            self._condition(w)
        self.observe(partner_at, my_view)  # 4.
        for f in self.mass:  # 5.
            self._see(f)

    def observe(self, partner_at: Optional[Cell], my_view: Optional[Cell]) -> None:
        """The chef's view: the partner seen at ``partner_at``, or not seen from ``my_view``."""
        if partner_at is not None and partner_at in self.index:
            w = np.zeros_like(self.p)
            w[self.index[partner_at]] = 1.0
        elif my_view is not None:
            w = 1.0 - self.sight(my_view)
        else:
            return
        self._condition(w)

    def _condition(self, w: np.ndarray) -> None:
        """Keep the mass on the cells ``w`` allows (likelihood per cell), renormalised. Evidence the model gave
        no chance (a partner seen where it could not be) restarts the cell distribution there with each
        fluent's share of what the partner has seen kept."""
        p = self.p * w
        z = p.sum()
        if z <= 1e-12:
            total = self.p.sum() or 1.0
            fresh = w / (w.sum() or 1.0)
            for m in self.mass.values():
                for v in m:
                    m[v] = fresh * (m[v].sum() / total)
            self.p = fresh
            return
        self.p = p / z
        for m in self.mass.values():
            for v in m:
                m[v] = m[v] * w / z

    def made_by_partner(self, fluent: tuple, value) -> None:
        """The chef finds ``fluent`` changed to ``value`` out of its sight, by its partner: the partner knows it."""
        if fluent in self.mass:
            self.value[fluent] = value
            self._move_to(fluent, value, np.ones_like(self.p))

    def set_value(self, fluent: tuple, value) -> None:
        """The chef now believes ``fluent`` holds ``value`` (a change it did not see, e.g. a soup it finds ready):
        the partner has seen it where it sees the fluent now."""
        if fluent in self.mass:
            self.value[fluent] = value
            self._see(fluent)

    def knows(self, fluent: tuple) -> Optional[float]:
        """The probability that the partner's last view of ``fluent`` is the value the chef believes now (None:
        not a tracked fluent)."""
        m = self.mass.get(fluent)
        if m is None:
            return None
        total = sum(v.sum() for v in m.values())
        mine = m.get(self.value[fluent])
        return float(mine.sum() / total) if mine is not None and total > 0 else 0.0


def random_walk(cells: list, neighbours: Mapping[Cell, list], stay: Optional[float] = None) -> np.ndarray:
    """Stay with probability ``stay`` and step to each floor neighbour alike (``stay`` None: staying is one more
    option, alike)."""
    index = {c: i for i, c in enumerate(cells)}
    t = np.zeros((len(cells), len(cells)))
    for c in cells:
        nbrs = list(neighbours[c])
        if stay is None or not nbrs:
            for q in [c, *nbrs]:
                t[index[c], index[q]] += 1.0 / (len(nbrs) + 1)
            continue
        t[index[c], index[c]] += stay
        for q in nbrs:
            t[index[c], index[q]] += (1.0 - stay) / len(nbrs)
    return t


def steered_walk(cells: list, neighbours: Mapping[Cell, list], goals: Mapping[object, tuple],
                 odds: tuple = (0.7, 0.25, 0.05), wander: float = 0.2) -> np.ndarray:
    """A walk toward the partner's likely errands: ``goals`` maps a subgoal to (its probability, the steps from each
    cell to its nearest target spot, a dict; None or empty: no target, a random walk). From each cell, under one
    subgoal, every option (stay, each neighbour) weighs ``odds`` (closer, as far, farther), normalised; the
    subgoals mix by probability, and ``wander`` of the mass follows the random walk (the partner's errand may
    end and a new one begin out of sight)."""
    walk = random_walk(cells, neighbours, STAY)
    index = {c: i for i, c in enumerate(cells)}
    t = np.zeros_like(walk)
    total = 0.0
    for prob, dist in goals.values():
        if prob <= 0:
            continue
        total += prob
        if not dist:
            t += prob * walk
            continue
        g = np.zeros_like(walk)
        for c in cells:
            here = dist.get(c)
            options = [c, *neighbours[c]]
            if here is None or here == 0:
                g[index[c]] = walk[index[c]]  # at its target (or cut off): it acts there, or wanders
                continue
            w = []
            for q in options:
                d = dist.get(q)
                w.append(odds[2] if d is None or d > here else odds[1] if d == here else odds[0])
            s = sum(w)
            for q, x in zip(options, w):
                g[index[c], index[q]] += x / s
        t += prob * g
    if total <= 0:
        return walk
    return wander * walk + (1 - wander) * t / total


__all__ = ["PartnerSight", "random_walk", "steered_walk"]
