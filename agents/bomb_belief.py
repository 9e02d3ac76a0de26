"""A deterministic belief agent for bomb_v0: beliefs from its own observations and messages only.

Its state is built solely from what the env shows it (``infos[agent]["obs"]`` at its turns, its own
action results, messages delivered to it); it never reads the world, the trace or the checker.

* Zero-order beliefs: bomb locations, room contents, remaining sequences (its own inspections and
  tool results, teammates' messages), the public locations and score.
* First-order beliefs: what each teammate has observed, in the same calculus the checker uses
  (:class:`belief.envs.bomb_tom.Epistemics`). Teammates' private results are predicted with a
  partner model of the team protocol below (a teammate that stays in a room with a bomb inspected
  it or applied a tool to it; tools are applied only to common-knowledge sequences), so the model
  is exact in a team of belief agents and approximate with other teammates.
* Team protocol: share in each message what some teammate lacks (room contents, sequences,
  defusals); apply a tool only when the bomb's sequence is common knowledge (it was in a delivered
  message, updated by the predictable applications since), so every teammate can follow every
  change; explore unvisited rooms by a public greedy assignment.
"""

from __future__ import annotations

from belief.envs.bomb_map import AGENTS, CUTTERS, DEFAULT_MAP, GameMap, action_table
from belief.envs.bomb_text import fmt_contents, fmt_defused_phase, fmt_seq, parse_message_facts
from belief.envs.bomb_tom import Epistemics, _fact_text


class BeliefAgent:
    kind = "belief"

    def __init__(self, name: str, game_map: GameMap = DEFAULT_MAP, cutters=None, agents=AGENTS):
        self.name = name
        self.map = game_map
        self.agents = tuple(agents)
        self.cutters = dict(cutters or CUTTERS)
        self.table = action_table(self.map.rooms)
        self.ep = Epistemics(self.agents)
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
        self.room_bomb[room] = bomb
        if bomb is not None:
            self.bomb_room[bomb] = room
            self.ep.bomb_room[bomb] = room
            for k, who in self.pending.pop(room, []):
                self._teammate_stationary(k, who, room)

    def _teammate_stationary(self, k, who, room):
        b = self.room_bomb.get(room)
        if b is None or b in self.defused:
            return
        t = 2 * k + 1
        ck = self.ck_seq.get(b)
        if ck and ck[0] in self.cutters[who]:
            new = ck[1:]
            self.ck_seq[b] = new
            self.own_seq[b] = new
            self.ep.add_defusal(b, t, not new)
            self.ep.add_change_ev(who, b, t)
        self.ep.add_seq(who, b, t)

    def _public_turn(self, rec):
        k, who, frm, to = rec["turn"], rec["agent"], rec["from"], rec["to"]
        if k in self.done_turns:
            return
        self.done_turns.add(k)
        self.ep.add_turn(k, who, frm, to)
        self.ep.add_contents(who, frm, 2 * k)
        self.visited.add(frm)
        self.loc[who] = to
        t = 2 * k + 1
        if rec["score"] > self.score and frm == to:
            b = self.room_bomb.get(frm)
            ck = self.ck_seq.get(b) if b is not None else None
            if b is not None and ck is not None and len(ck) == 1:
                self._teammate_stationary(k, who, frm)   # the predicted final application
            elif b is not None:
                self.ep.add_defusal(b, t, True)
                self.ep.add_change_ev(who, b, t)
                self.ep.add_seq(who, b, t, value=())
            self.ep.add_room_change(frm, t)
            present = tuple(a for a in self.agents if self.loc.get(a) == frm)
            if b is not None:
                self.ep.add_vanish(b, frm, t, present)
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
        self.ep.add_message(sender, posted, t_del, facts, [True] * len(facts))
        for f in facts:
            if f["type"] == "contents":
                self._learn_room(f["room"], f["bombs"][0] if f["bombs"] else None)
            elif f["type"] == "located":
                self._learn_room(f["room"], f["bomb"])
            elif f["type"] == "seq":
                if f.get("room") is not None:
                    self._learn_room(f["room"], f["bomb"])
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
        self.ep.add_contents(self.name, here, 2 * self.k, value=tuple(obs["contents"]))
        self._learn_room(here, obs["contents"][0] if obs["contents"] else None)

    def act(self, obs: dict) -> tuple[int, str]:
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
        self.ep.add_turn(k, self.name, res["from"], res["to"])
        self.loc[self.name] = res["to"]
        if res["valid"] and res["bomb"] is not None and res["kind"] in ("inspect", "apply"):
            b = res["bomb"]
            after = tuple(res["seq_after"])
            self.own_seq[b] = after
            self.ep.add_seq(self.name, b, t, value=after)
            if res["defused_phase"]:
                self.ep.add_defusal(b, t, res["vanished"])
                self.ep.add_change_ev(self.name, b, t)
                if b in self.ck_seq:
                    self.ck_seq[b] = after
                if res["vanished"]:
                    self.ep.add_room_change(res["from"], t)
                    self.ep.add_vanish(b, res["from"], t, tuple(res["present"]))
                    self._mark_defused(b)
                    self.room_bomb[res["from"]] = None
        self.score = res["score"]
        if message:
            self.queue.append((2 * 3 * res["round"], self.name, t, parse_message_facts(message)))

    # --- ToM answers -----------------------------------------------------------------------------
    def answer(self, q: dict) -> str:
        T = 2 * q["turn"] + 1
        level, tpl, subj, x = q["level"], q["template"], q["subject"], q["target"]
        # messages already delivered by T are in the queue only if the round advanced; flush those
        due = [i for i in self.queue if i[0] <= T]
        if due:
            self.queue = [i for i in self.queue if i[0] > T]
            for i in sorted(due, key=lambda i: i[0]):
                self._deliver(i)
        if level == "introspection":
            yes = self.ep.knows(self.name, tpl, subj, T)
            who = "I"
        elif level == "first_order":
            yes = self.ep.knows(x, tpl, subj, T)
            who = x.capitalize()
        else:
            yes = self.ep.aware(x, self.name, tpl, subj, T)
            who = x.capitalize()
        fact = _fact_text(tpl, subj, True)
        that = "" if tpl in ("contents", "sequence") else "that "
        if level == "second_order":
            return (f"Yes, {who} is aware that I know {that}{fact}." if yes else
                    f"No, {who} is not aware that I know {that}{fact}, given what {who} has observed.")
        verb = "know" if who == "I" else "knows"
        neg = "do not know" if who == "I" else "does not know"
        return f"Yes, {who} {verb} {that}{fact}." if yes else f"No, {who} {neg} {that}{fact}."

    # --- beliefs as facts -------------------------------------------------------------------------
    def belief_store(self):
        """This agent's current zero- and first-order beliefs as belief-language facts in a typed BeliefStore
        (domain ``bomb`` of :mod:`belief.rule_translate`): where agents and bombs are, the sequences it holds,
        defused bombs, and, per teammate, the room contents and sequences it believes that teammate knows
        (the same judgement its ToM answers use).  For inspection, diffs and tests; it reads only this
        agent's own state."""
        from belief.envs.bomb_domain import bomb_domain, bomb_entities, seq_name
        from belief.store import BeliefStore

        T = 2 * self.k + 1
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
                if b is not None and self.ep.knows(x, "contents", room, T):
                    facts.append(f"{me} BELIEVE {x} BELIEVE bomb_{b} IN room_{room}")
            for b in bombs:
                seq = () if b in self.defused else self._belief_seq(b)
                if seq is not None and self.ep.knows(x, "sequence", b, T):
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
        T = 2 * self.k
        return any(self.ep._latest(self.ep.seq[a].get(b), T) is not None for a in self.agents)

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
        T = 2 * self.k
        kind, arg = self.table[action]
        here = obs["room"]
        mates = [a for a in self.agents if a != self.name]
        parts = []
        b_here = obs["contents"][0] if obs["contents"] else None
        after_here = None
        if b_here is not None and kind == "apply":
            ck = self.ck_seq.get(b_here)
            after_here = ck[1:] if ck and ck[0] == arg else None
        contents_after = [] if (after_here == ()) else list(obs["contents"])
        if any(not self.ep.knows(a, "contents", here, T) for a in mates):
            parts.append(fmt_contents(here, contents_after))
        for r, b in sorted(self.room_bomb.items()):
            if r == here:
                continue
            if self.ep.knows(self.name, "contents", r, T) and any(not self.ep.knows(a, "contents", r, T) for a in mates):
                parts.append(fmt_contents(r, [b] if b is not None and b not in self.defused else []))
        for b in sorted(self.own_seq):
            seq = self._belief_seq(b)
            if seq is None or b in self.defused:
                continue
            if b == b_here and after_here is not None:
                seq = after_here
            elif not self._knows_seq(b):
                continue
            if any(not self.ep.knows(a, "sequence", b, T) for a in mates) or (b == b_here and after_here is not None):
                parts.append(fmt_seq(b, seq, room=self.bomb_room.get(b)))
        if b_here is not None and after_here is not None:
            parts.append(fmt_defused_phase(b_here))
        return " ".join(parts)


__all__ = ["BeliefAgent"]
