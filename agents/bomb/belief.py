"""A deterministic belief agent for bomb_v0: beliefs from its own observations and messages only.

Its state is built solely from what the env shows it: ``infos[agent]["obs"]`` at its turns, its own
action results, messages delivered to it, and its *private trace* (the events it perceived, handed over
by ``env.take_perceived(agent)``, in the general trace vocabulary). It never reads the world, the global
trace or the grading code.

* ToM answers and "who lacks what": the general checker on its own private trace
  (:class:`belief.truth.record.PrivateRecord`, updated as perceptions arrive); what a teammate knows is judged from what this agent saw that teammate observe or hear.
  Teammates' private results (an inspection it did not see) are invisible to it, so its answers about
  teammates can be wrong: they are graded against the truth of the global trace.
* Planning state: bomb locations, room contents, remaining sequences (its own inspections and tool
  results, teammates' messages), the public locations and score, and the sequences that are common
  knowledge under the team protocol below.
* Team protocol: share in each message what it believes some teammate lacks (room contents, sequences,
  the effects of its own last action once it has seen them: never an effect it has not observed); apply a
  tool only when the bomb's sequence is common knowledge (it was in a delivered message, updated by the
  predictable applications since); explore unvisited rooms by a public greedy assignment.
"""

from __future__ import annotations

from belief.agents.bomb.common import BombAgent
from belief.envs.bomb.domain import bomb_domain, bomb_entities, seq_name
from belief.envs.bomb.events import f_contents, f_seq, message_content
from belief.envs.bomb.world import AGENTS, CUTTERS, DEFAULT_MAP, GameMap, action_table
from belief.envs.bomb.text import fmt_contents, fmt_defused_phase, fmt_seq, parse_message_facts
from belief.envs.bomb.tom import PHRASING, study_question
from belief.grading.questions import YES, Question, private_answer, question_from_dict
from belief.grading.render import say
from belief.logic.store import BeliefStore
from belief.truth.record import PrivateRecord


class BeliefAgent(BombAgent):
    kind = "belief"

    def __init__(self, name: str, game_map: GameMap = DEFAULT_MAP, cutters=None, agents=AGENTS, constraints=None):
        self.name = name
        self.map = game_map
        self.agents = tuple(agents)
        self.cutters = dict(cutters or CUTTERS)
        self.table = action_table(self.map.rooms)
        # what it perceived, and the checker on it; the game's public rules (the trace meta's "constraints"):
        # knowledge by elimination on its record too
        self.private_record = PrivateRecord(name, meta={"constraints": list(constraints)} if constraints else None)
        self._unreported: list[int] = []                # bombs whose phase I defused and have not told
        self.seen_seq: dict[int, tuple] = {}           # sequences I read myself or was told (never predicted)
        self.loc: dict[str, int] = {}
        self.score = 0
        self.room_bomb: dict[int, int | None] = {}   # room -> bomb not yet defused (None: none)
        self.bomb_room: dict[int, int] = {}
        self.defused: set[int] = set()
        self.own_seq: dict[int, tuple] = {}            # my latest known remaining sequence
        self.ck_seq: dict[int, tuple] = {}             # common-knowledge sequences
        self.pending: dict[int, list[tuple[int, str]]] = {}  # room -> teammates' stationary turns, bomb unknown
        self.queue: list[tuple[int, str, int, list]] = []    # deliveries (time, sender, posted, facts)
        self.done_turns: set[int] = set()
        self.visited: set[int] = set()
        self.k = -1
        self.round = 1

    # --- bookkeeping -----------------------------------------------------------------------------
    def _learn_room(self, room, bomb):
        if room in self.room_bomb and self.room_bomb[room] == bomb:
            return
        for b in [b for b, r in self.bomb_room.items() if r == room and b != bomb]:
            # bombs never move: one believed here and no longer here was defused
            del self.bomb_room[b]
            self._mark_defused(b)
        self.room_bomb[room] = bomb
        if bomb is not None:
            self.bomb_room[bomb] = room
            for k, who in self.pending.pop(room, []):
                self._teammate_stationary(k, who, room)

    def _teammate_stationary(self, k, who, room):
        b = self.room_bomb.get(room)
        if b is None or b in self.defused:
            return
        ck = self.ck_seq.get(b)
        if ck and ck[0] in self.cutters[who]:
            new = ck[1:]
            self.ck_seq[b] = new
            self.own_seq[b] = new

    def _public_turn(self, rec):
        k, who, frm, to = rec["turn"], rec["agent"], rec["from"], rec["to"]
        if k in self.done_turns:
            return
        self.done_turns.add(k)
        self.visited.add(frm)
        self.loc[who] = to
        if rec["score"] > self.score and frm == to:
            b = self.room_bomb.get(frm)
            ck = self.ck_seq.get(b) if b is not None else None
            if b is not None and ck is not None and len(ck) == 1:
                self._teammate_stationary(k, who, frm)   # the predicted final application
            if b is not None:
                self._mark_defused(b)
            self.room_bomb[frm] = None
        elif frm == to:
            if frm in self.room_bomb:
                self._teammate_stationary(k, who, frm)
            else:
                self.pending.setdefault(frm, []).append((k, who))
        self.score = rec["score"]

    def _mark_defused(self, b):
        self.defused.add(b)
        self.ck_seq[b] = ()
        self.own_seq[b] = ()

    def _deliver(self, item):
        t_del, sender, posted, facts = item
        for f in facts:
            if f["type"] == "contents":
                self._learn_room(f["room"], f["bombs"][0] if f["bombs"] else None)
            elif f["type"] == "located":
                self._learn_room(f["room"], f["bomb"])
            elif f["type"] == "seq":
                if f.get("room") is not None:
                    self._learn_room(f["room"], f["bomb"])
                self.seen_seq.setdefault(f["bomb"], tuple(f["seq"]))
                if f["bomb"] not in self.ck_seq:
                    self.ck_seq[f["bomb"]] = tuple(f["seq"])
                    if f["bomb"] not in self.own_seq:
                        self.own_seq[f["bomb"]] = tuple(f["seq"])

    # --- the env interface -----------------------------------------------------------------------
    def observe(self, obs: dict) -> None:
        """Take in the observation at the start of this agent's turn."""
        self.k = obs["turn"]
        self.round = obs["round"]
        for m in obs["messages"]:
            self.queue.append((2 * 3 * m["round"], m["sender"], 2 * m["posted_turn"] + 1,
                               parse_message_facts(m["text"])))
        items = [(2 * r["turn"] + 1, 1, r) for r in obs["public"]] + [(q[0], 0, q) for q in self.queue]
        self.queue = []
        for _t, kind, item in sorted(items, key=lambda x: (x[0], x[1])):
            if kind == 0:
                self._deliver(item)
            else:
                self._public_turn(item)
        for w in obs.get("witnessed", []):
            pass  # vanishings are inferred from the public score and locations (see _public_turn)
        self.loc.update(obs["locations"])
        self.score = obs["score"]
        here = obs["room"]
        self.visited.add(here)
        self._learn_room(here, obs["contents"][0] if obs["contents"] else None)

    def choose(self, obs: dict, mask=None) -> tuple[int, str]:
        self.observe(obs)
        action = self._choose(obs)
        message = self._message(obs, action)
        self._last_action = action
        return action, message

    def observe_result(self, res: dict, message: str = "") -> None:
        """Take in the result of this agent's own action (and queue its own message for delivery)."""
        k = res["turn"]
        t = 2 * k + 1
        self.done_turns.add(k)
        self.loc[self.name] = res["to"]
        if res["valid"] and res["bomb"] is not None and res["kind"] in ("inspect", "apply"):
            b = res["bomb"]
            after = tuple(res["seq_after"])
            self.own_seq[b] = after
            self.seen_seq[b] = after
            if res["defused_phase"]:
                self._unreported.append(b)
                if b in self.ck_seq:
                    self.ck_seq[b] = after
                if res["vanished"]:
                    self._mark_defused(b)
                    self.room_bomb[res["from"]] = None
        self.score = res["score"]
        if message:
            self.queue.append((2 * 3 * res["round"], self.name, t, parse_message_facts(message)))

    # --- the private trace and ToM answers ------------------------------------------------------
    def record(self, events) -> None:
        """Append the events this agent perceived (``env.take_perceived(name)``) to its private record."""
        self.private_record.add(events)

    @property
    def private(self):
        """Its private trace (the events it perceived)."""
        return self.private_record.trace

    def private_truth(self):
        """The general checker on this agent's private trace (kept up to date as events arrive)."""
        return self.private_record.truth()

    def _believes_value(self, fluent):
        v = self.private_truth().value((self.name,), fluent)
        return v if isinstance(v, str) else None

    def _knows(self, chain, fluent) -> bool:
        return self.private_truth().knows_chain(chain, fluent)

    def question(self, q: dict) -> Question:
        """The general question of what it was shown (``q["question"]``; a study question given only by its
        labels, ``level`` / ``template`` / ``subject`` / ``target``, is stated by the world's one definition)."""
        if "question" in q:
            return question_from_dict(q["question"])[0]
        return study_question(str(q.get("id", "q")), 0, q["level"], self.name, q["target"], q["template"],
                              int(q["subject"]), int(q.get("turn", 0)), q.get("variant", ""), len(self.agents))

    def believes(self, q: dict, egocentric: bool = False) -> bool:
        """Its yes/no to a ToM question: the question answered by the checker on its private trace
        (:func:`belief.grading.questions.private_answer`). ``egocentric``: no teammate model, the chain is read
        as its own belief ("answer as yourself": "Does X know F?" becomes "Do I know F?")."""
        return private_answer(self.private_truth(), self.question(q), (self.name,) if egocentric else None) == YES

    def answer(self, q: dict) -> str:
        general = self.question(q)
        return say(general, private_answer(self.private_truth(), general), PHRASING)

    # --- beliefs as facts -------------------------------------------------------------------------
    def belief_store(self) -> BeliefStore:
        """This agent's current zero- and first-order beliefs as belief-language facts in a typed BeliefStore
        (domain ``bomb``): where agents and bombs are, the sequences it holds, defused bombs, and, per
        teammate, the room contents and sequences it believes that teammate knows (the same judgement its
        ToM answers use: the checker on its private trace). It reads only this agent's own state."""
        me = self.name
        bombs = sorted(set(self.bomb_room) | self.defused)
        store = BeliefStore(bomb_domain(), bomb_entities(rooms=self.map.rooms, bombs=bombs or range(1, 6),
                                                         agents=self.agents))
        facts = [f"{me} BELIEVE {a} AT room_{r}" for a, r in sorted(self.loc.items())]
        for b in bombs:
            if b in self.bomb_room:
                facts.append(f"{me} BELIEVE bomb_{b} IN room_{self.bomb_room[b]}")
            if b in self.defused:
                facts += [f"{me} BELIEVE state(bomb_{b}, defused)", f"{me} BELIEVE seq(bomb_{b}, none)"]
            elif self._belief_seq(b) is not None:
                facts.append(f"{me} BELIEVE seq(bomb_{b}, {seq_name(self._belief_seq(b))})")
        for x in self.agents:
            if x == me:
                continue
            for room, b in sorted(self.room_bomb.items()):
                if b is not None and self._knows((x,), f_contents(room)):
                    facts.append(f"{me} BELIEVE {x} BELIEVE bomb_{b} IN room_{room}")
            for b in bombs:
                seq = () if b in self.defused else self._belief_seq(b)
                if seq is not None and self._knows((x,), f_seq(b)):
                    facts.append(f"{me} BELIEVE {x} BELIEVE seq(bomb_{b}, {seq_name(seq)})")
        store.add_all(facts, mode="replace")
        return store

    # --- planning --------------------------------------------------------------------------------
    def _knows_seq(self, b) -> bool:
        if self.ck_seq.get(b) is not None:
            return True
        # for planning: my own latest value; in a belief team sequences change only by common-knowledge
        # applications, which are tracked, so it is current (the strict K of the ToM answers is stricter)
        return b in self.own_seq

    def _belief_seq(self, b):
        if self.ck_seq.get(b) is not None:
            return self.ck_seq[b]
        return self.own_seq.get(b)

    def _choose(self, obs) -> int:
        here = obs["room"]
        mine = self.cutters[self.name]
        b = obs["contents"][0] if obs["contents"] else None
        if b is not None:
            ck = self.ck_seq.get(b)
            if ck and ck[0] in mine:
                return self.table.index(("apply", ck[0]))
            if not self._knows_seq(b) and not self._someone_knows_seq(b):
                return self.table.index(("inspect", None))
            seq = self._belief_seq(b)
            if ck is None and seq and seq[0] in mine:
                return self.table.index(("inspect", None))  # wait here until the sequence is common knowledge
        target = self._target(here)
        if target == here or target is None:
            if b is not None:
                return self.table.index(("inspect", None))
            target = self.map.neighbours(here)[0]
        return self.table.index(("move", self.map.next_step(here, target)))

    def _someone_knows_seq(self, b) -> bool:
        return any(self._knows((a,), f_seq(b)) for a in self.agents)

    def _target(self, here):
        mine = self.cutters[self.name]
        dist = self.map.distances(here)
        live = {r: b for r, b in self.room_bomb.items() if b is not None and b not in self.defused}
        # 1. a bomb whose next colour I hold
        best = None
        for r, b in live.items():
            seq = self._belief_seq(b)
            if seq and seq[0] in mine:
                cost = dist[r] + (0 if self.ck_seq.get(b) is not None else 1)
                if best is None or (cost, r) < best:
                    best = (cost, r)
        # 2. rooms to visit: unknown contents, or a bomb nobody has inspected (public greedy assignment)
        need = [r for r in self.map.rooms
                if (r not in self.room_bomb and r not in self.visited)
                or (r in live and not self._someone_knows_seq(live[r]))]
        claims = {}
        pairs = sorted((self.map.distances(self.loc.get(a, here))[r], i, r, a)
                       for i, a in enumerate(self.agents) for r in need)
        taken_r, taken_a = set(), set()
        for d, _i, r, a in pairs:
            if r in taken_r or a in taken_a:
                continue
            taken_r.add(r)
            taken_a.add(a)
            claims[a] = r
        if best is not None and (best[0] <= 1 or self.name not in claims):
            return best[1]
        if self.name in claims:
            return claims[self.name]
        if best is not None:
            return best[1]
        # 3. a bomb whose remaining sequence holds one of my colours, else any live bomb
        cands = [(dist[r], r) for r, b in live.items()
                 if any(c in mine for c in (self._belief_seq(b) or ()))] or [(dist[r], r) for r in live]
        if cands:
            return min(cands)[1]
        unknown = [(dist[r], r) for r in self.map.rooms if r not in self.room_bomb]
        return min(unknown)[1] if unknown else None

    # --- messages --------------------------------------------------------------------------------
    def _message(self, obs, action) -> str:
        """What some teammate lacks, as far as this agent can tell; only effects it has already observed."""
        here = obs["room"]
        mates = [a for a in self.agents if a != self.name]
        parts = []
        if any(not self._knows((a,), f_contents(here)) for a in mates):
            parts.append(fmt_contents(here, list(obs["contents"])))
        for r, b in sorted(self.room_bomb.items()):
            if r == here:
                continue
            if self._knows((self.name,), f_contents(r)) and any(not self._knows((a,), f_contents(r)) for a in mates):
                parts.append(fmt_contents(r, [b] if b is not None and b not in self.defused else []))
        for b, seq in sorted(self.seen_seq.items()):
            # only what it saw itself or was told: never a predicted effect of a teammate's (or its own) action
            if b in self.defused and b not in self._unreported:
                continue
            if any(not self._knows((a,), f_seq(b)) for a in mates) or b in self._unreported:
                parts.append(fmt_seq(b, seq, room=self.bomb_room.get(b)))
        for b in self._unreported:
            parts.append(fmt_defused_phase(b))
        self._unreported = []
        return " ".join(self._consistent(parts))

    def _consistent(self, parts: list) -> list:
        """The parts, in order, each kept only if the world's rules leave it consistent with those kept before
        it: a message never contradicts itself ("Room 6 is empty" and "Bomb 3 (in Room 6) ...")."""
        rules = self.private_record.tracker.constraints
        if not rules:
            return parts
        kept: list = []
        sets: dict = {}
        for part in parts:
            content = message_content(parse_message_facts(part))
            trial = dict(sets)
            clash = False
            for c in content:
                v = frozenset((c.value,))
                if trial.get(c.fluent, v) & v:
                    trial[c.fluent] = v
                else:
                    clash = True
            if clash or any(x is not None and not x for x in rules.propagate(trial).values()):
                continue
            sets = trial
            kept.append(part)
        return kept


__all__ = ["BeliefAgent"]
