"""Belief agents for CollabCapture / CollabEscape: everything they use comes from their private trace
(:class:`~belief.agents.maze.tracking.MazeTracker`): the door states they saw, the rooms the adversary
may be in, where they last saw or were told their partner is. They share sightings with a ``tell``
(the adversary's room and their own) and use buttons: they open a closed door that cuts them off from their
goal, and (capture) close a door when that shrinks the rooms the thief can still flee to.

Capture: when the thief's room is known, each player scores its moves and presses by the number of rooms
the thief reaches before any hunter (its own new room, the partner where it believes it is), then by its
distance to the thief: the two split without talking about it. Otherwise it searches the nearest room the
thief may be in, leaving rooms nearer the partner to the partner.

Escape: repair the generator, then go through the gate, on routes the killer cannot cut in the next few
steps given when it moves (every other round) and the rooms it may be in (sightings shared by messages, each
player also telling where it is); with no such route, a press that opens the way, else the move (or press)
that keeps the killer farthest. When the killer is lost (more than three rooms possible), the shortest route.
"""

from __future__ import annotations

from belief.agents.maze.tracking import MazePlayer, MazeTracker
from belief.envs.coordqa.questions import ec_answer
from belief.agents.maze.escape_source import SourceEscapePlanner
from belief.envs.maze.escape import KILLER_EVERY, f_repairs
from belief.envs.maze.world import DIRECTIONS, MOVES, PRESS, STAY, USE, Maze, plan_first_actions


def route(maze: Maze, start: str, goal: str, blocked=()) -> int | None:
    """The first action of a shortest plan (moves and button presses) from ``start`` to ``goal``, avoiding
    the ``blocked`` rooms when that is possible; None when no plan reaches it (or already there)."""
    for avoid in (set(blocked) - {goal, start}, set()):
        first = plan_first_actions(maze, start, {goal}, avoid)
        if first and first != (STAY,):
            return first[0]
    return None


def outcomes(maze: Maze, room: str, mask) -> list:
    """``(action, my room after it, door states after it)`` for every legal action."""
    out = []
    for a, ok in enumerate(mask):
        if not ok or a == USE:
            continue
        if a == STAY:
            out.append((a, room, maze.open))
        elif a == PRESS:
            out.append((a, room, maze.toggled(maze.buttons[room])))
        else:  # a door it believes shut (the mask says otherwise): it expects to stay put
            out.append((a, maze.step_to(room, DIRECTIONS[a - 1]) or room, maze.open))
    return out


class MazeBeliefAgent(MazePlayer):
    kind = "belief"

    def __init__(self, name: str, partner: str, adversary: str, layout: dict):
        self.name, self.partner = name, partner
        self.tracker = MazeTracker(name, partner, adversary, layout)
        self.layout = layout

    def new_round(self) -> None:
        self.tracker.new_round()

    def answer(self, q: dict) -> str:
        """ToM questions: the checker on the private trace; EC questions: the tracked map (believed door
        states, the rooms the adversary may be in)."""
        if q.get("category") == "EC":
            return ec_answer(q, self.tracker.maze, self.tracker.possible)
        return self.tracker.answer(q)

    def compose_message(self, view: dict):
        """Share a sighting of the adversary (and where I am) with the partner."""
        adv = self.tracker.adversary
        if adv in view["seen"]:
            return {("at", adv): view["seen"][adv], ("at", self.name): view["room"]}
        return None

    def _search(self, room: str):
        t = self.tracker
        maze = t.maze
        mine, partner = maze.distances(room), t.where(self.partner)
        theirs = maze.distances(partner) if partner in maze.rooms else {}
        candidates = sorted(t.possible, key=lambda r: (mine.get(r, 99) > theirs.get(r, 99), mine.get(r, 99), r))
        for goal in candidates:
            if goal != room:
                a = route(maze, room, goal)
                if a is not None:
                    return a
        return STAY


class CaptureBeliefAgent(MazeBeliefAgent):
    def choose(self, view: dict, mask) -> int:
        t = self.tracker
        room = view["room"]
        thief = t.adversary_known()
        if thief is None:
            return self._search(room)
        partner = t.where(self.partner)
        best, best_score = STAY, None
        for a, mine, open_ in outcomes(t.maze, room, mask):
            hunters = [mine] + ([partner] if partner in t.maze.rooms else [])
            score = (0 if thief in hunters else 1, self._flee_room(thief, hunters, open_),
                     t.maze.distances(mine, open_).get(thief, 99), a == PRESS)
            if best_score is None or score < best_score:
                best, best_score = a, score
        if best == STAY and thief != room and route(t.maze, room, thief) is not None:
            return route(t.maze, room, thief)
        return best

    def _flee_room(self, thief: str, hunters, open_) -> int:
        """How many rooms the thief reaches strictly before every hunter."""
        maze = self.tracker.maze
        theirs = [maze.distances(h, open_) for h in hunters]
        own = maze.distances(thief, open_)
        return sum(1 for r, d in own.items() if all(d < h.get(r, 99) for h in theirs))


def safe_first_move(maze: Maze, start: str, goal: str, killer_rooms, killer_moves, horizon: int = 12,
                    lookahead: int = 3):
    """The first move of a shortest route from ``start`` to ``goal`` on which the killer cannot be met: the
    killer starts in one of ``killer_rooms`` and, after the player's step ``i`` (1-based), has made
    ``killer_moves(i)`` moves through open doors, in any direction (worst case), for the first ``lookahead``
    steps (further on, the killer may have gone anywhere: the route is replanned every step). None when no
    such route within ``horizon`` steps."""
    killer_rooms = set(killer_rooms)
    reach = [killer_rooms]
    for _ in range(horizon + 1):
        spread = set(reach[-1])
        for r in reach[-1]:
            spread.update(maze.open_neighbours(r))
        reach.append(spread)
    frontier = {start: None}
    for step in range(1, horizon + 1):
        danger = reach[min(killer_moves(step), horizon)] if step <= lookahead else set()
        nxt = {}
        for room, first in frontier.items():
            for direction in DIRECTIONS:
                after = maze.step_to(room, direction)
                if after is None or after in danger or after in nxt:
                    continue
                nxt[after] = first if first is not None else MOVES[direction]
            if room not in danger and room not in nxt:
                nxt[room] = first if first is not None else STAY
        if goal in nxt:
            return nxt[goal]
        if not nxt:
            return None
        frontier = nxt
    return None


class EscapeBeliefAgent(MazeBeliefAgent):
    """Repairs and escapes on routes the killer cannot cut (given when it moves: every ``killer_every``
    rounds, and the rooms it may be in). No explicit lure role: both players head for the generator."""

    killer_every = KILLER_EVERY
    #: whether it models its partner (False: :class:`EscapeLookaheadAgent`, the ablation)
    partner_model = True

    def compose_message(self, view: dict):
        """Where I am, and the killer when I see it (the partner plans its route and its role with both);
        nothing in full view (the source's rules), where the partner sees it all."""
        if not view["active"] or self.layout.get("full_view"):
            return None
        facts = {("at", self.name): view["room"]}
        adv = self.tracker.adversary
        if adv in view["seen"]:
            facts[("at", adv)] = view["seen"][adv]
        if self.tracker.known.get(("at", self.name)) == view["room"] and self._told == (view["room"], view["seen"].get(adv)):
            return None
        self._told = (view["room"], view["seen"].get(adv))
        return facts

    _told = None

    def killer_moves(self, round_: int):
        every = self.killer_every
        return lambda step: sum(1 for r in range(round_, round_ + step) if r % every == 0)

    def choose(self, view: dict, mask) -> int:
        t = self.tracker
        room, maze = view["room"], t.maze
        if not view["active"]:
            return STAY
        if self.layout.get("rules") == "source":
            return self._choose_source(view, mask)
        if mask[USE] and not self._killer_arrives(view, room):
            return USE
        goal = self._goal(view)
        moves = self.killer_moves(view["round"])
        if len(t.possible) > 3:  # the killer is lost: the shortest route
            a = route(maze, room, goal)
            return a if a is not None else STAY
        a = safe_first_move(maze, room, goal, t.possible, moves)
        if a is not None and a != STAY:
            return a
        if a == STAY:
            return STAY
        planned = route(maze, room, goal)  # a route through a button (its press is safe where I stand)
        if planned == PRESS and not self._killer_arrives(view, room):
            return PRESS
        return self._evade(view, mask, goal)

    def _choose_source(self, view: dict, mask) -> int:
        """The source's rules: everything is in view and the killer's rule is known, so plan a few rounds
        ahead against its possible moves (:class:`~belief.agents.maze.escape_source.SourceEscapePlanner`), from
        what the private trace says: positions, the killer, the generators' repairs, the gate."""
        t = self.tracker
        killer = t.adversary_known()
        if killer is None:  # never in full view; fall back to the partial-view rules
            return self._evade(view, mask, self._goal(view))
        gens = self.layout.get("generators") or [self.layout["generator"]]
        needed = self.layout.get("repairs_needed", 2)
        left = {}
        for g in gens:
            done = t.known.get(f_repairs(g, len(gens)))
            done = int(done) if done is not None else 0
            if done < needed:
                left[g] = done
        order = (self.name, self.partner) if self.name < self.partner else (self.partner, self.name)
        pos = {p: t.where(p) for p in order if t.where(p) in t.maze.rooms}
        planner = SourceEscapePlanner(t.maze, self.name, order, needed, partner_model=self.partner_model)
        return planner.plan(pos, killer, left, self.layout["exit"], not left, mask)

    def _killer_arrives(self, view: dict, room: str) -> bool:
        """Whether the killer may enter my room at the end of this round."""
        if view["round"] % self.killer_every:
            return False
        near = set(self.tracker.possible)
        for r in self.tracker.possible:
            near.update(self.tracker.maze.open_neighbours(r))
        return room in near

    def _evade(self, view: dict, mask, goal: str) -> int:
        """No safe route: the action whose room the killer reaches last (then nearest the goal), where
        a press counts (a closed door can shut the killer out)."""
        t, room = self.tracker, view["room"]
        maze = t.maze

        def killer_distance(mine, open_):
            return min((maze.distances(k, open_).get(mine, 99) for k in t.possible), default=99)

        options = outcomes(maze, room, mask)
        best = max(options, key=lambda o: (min(killer_distance(o[1], o[2]), 3), route_length(maze, o[1], goal, o[2]) * -1,
                                           o[0] != PRESS))
        return best[0]

    def _goal(self, view: dict) -> str:
        return view["exit"] if view["gate_open"] else view["generator"]


class EscapeLookaheadAgent(EscapeBeliefAgent):
    """The ablation of :class:`EscapeBeliefAgent`: the same lookahead (the source's rules: the expectimax planner;
    partial view: routes the killer cannot cut), without beliefs about its partner. It neither tells nor reads
    messages (a partner's ``tell`` events are dropped before its tracker sees them, so every killer sighting is its
    own), and under the source's rules it predicts the killer from its own room alone and heads for the generator
    nearest it rather than splitting the generators with its partner."""

    kind = "lookahead"
    partner_model = False

    def compose_message(self, view: dict):
        return None

    def perceive(self, events, info: dict | None = None) -> None:
        super().perceive([ev for ev in events if ev.kind != "tell"], info)


def route_length(maze: Maze, start: str, goal: str, open_) -> int:
    return maze.distances(start, open_).get(goal, 99)


__all__ = ["MazeBeliefAgent", "CaptureBeliefAgent", "EscapeBeliefAgent", "EscapeLookaheadAgent", "route", "outcomes", "safe_first_move"]
