"""Issue 28: knowledge and awareness exactly as docs/logic.md states them, one scripted trace per class.

Each case is the issue's situation reduced to a few events of a small bomb world (rooms 0, 5, 6; bombs 1 and 2),
with the answer docs/logic.md gives ("Knowledge by elimination": possible sets come from the chain's own
records; "Which later beliefs defeat": formation times). Where the old kernel answered otherwise the test says
what it answered.
"""

from belief.truth.checker import check
from belief.truth.trace import Action, Announce, Condition, Content, Effect, Observe, Possible, Trace

EVERYONE = ("alpha", "bravo", "charlie")
ROOMS = ["room_0", "room_5", "room_6"]
BOMBS = ["bomb_1", "bomb_2"]
SEQS = ["red", "green", "blue", "red,red", "red,green", "red,blue", "green,green", "blue,red", "red,red,blue"]
CUTS = {"alpha": ("red", "green"), "bravo": ("green", "blue"), "charlie": ("blue", "red")}
RULES = [
    {"kind": "domain", "predicate": "in", "values": ROOMS + ["defused"], "initial": ROOMS},
    {"kind": "domain", "predicate": "contents", "values": BOMBS + ["none"]},
    {"kind": "inverse", "forward": "in", "backward": "contents", "empty": "none", "outside": ["defused"]},
    {"kind": "domain", "predicate": "seq", "values": ["none"] + SEQS, "initial": SEQS},
    {"kind": "domain", "predicate": "changed", "values": ["no", "yes"], "initial": ["no"]},
    {"kind": "implies", "if": {"predicate": "in", "values": ["defused"]},
     "then": {"predicate": "seq", "values": ["none"]}, "iff": True},
    {"kind": "implies", "if": {"predicate": "in", "values": ["defused"]},
     "then": {"predicate": "changed", "values": ["yes"]}},
    {"kind": "domain", "predicate": "last_defusal", "values": ["never"] + [f"turn_{k}" for k in range(10)]},
    {"kind": "domain", "predicate": "last_defuser", "values": ["nobody", *EVERYONE]},
]
#: the same world without the links between a bomb's fluents (before issue 28)
UNLINKED = [r for r in RULES if r["kind"] != "implies"]


def eff(pred, subj, v):
    return Effect(predicate=pred, subject=(subj,), value=v)


def setup(seqs=None, **where):
    """The hidden initial world: bomb -> room, and each bomb's sequence (seen by nobody)."""
    held = {r: b for b, r in where.items()}
    effects = [eff("in", b, r) for b, r in where.items()] + [eff("contents", r, held.get(r, "none")) for r in ROOMS]
    effects += [eff("seq", b, (seqs or {}).get(b, "red")) for b in where] + [eff("changed", b, "no") for b in where]
    return Action(name="setup", effects=tuple(effects), visible_to=())


def look(agent, room, *bombs):
    """``agent`` sees ``room`` (and the bomb there), witnessed by everyone (locations are public)."""
    return Observe(agents=(agent,), fluents=(("contents", room), *(("in", b) for b in bombs)), witnesses=EVERYONE)


def stay(agent, room, turn, cutters=None):
    """Everyone sees ``agent`` stay in ``room``: per bomb, a possible cut of a phase (if the bomb may be there with
    a sequence the agent can cut), with its outcome (changed at ``turn`` by ``agent``)."""
    cut = tuple(s for s in SEQS if "," in s and s.split(",")[0] in (cutters or CUTS[agent]))
    return [Possible(agent=agent, observers=EVERYONE,
                     fluents=(("seq", b), ("last_defusal", b), ("last_defuser", b), ("changed", b)),
                     values=(None, f"turn_{turn}", agent, "yes"),
                     given=(Condition(fluent=("in", b), values=(room,)), Condition(fluent=("seq", b), values=cut)))
            for b in BOMBS]


def vanish(actor, bomb, room, turn, present=None):
    """``actor`` cuts the last phase of ``bomb`` in ``room``: those present see it go; everyone sees the score jump,
    so whoever believed ``bomb`` was there learns which, and for the others it is a possible change of whichever
    bomb may be there (never the hidden world's); everyone sees the room empty."""
    last = CUTS[actor]
    fl = ("in", "seq", "changed", "last_defusal", "last_defuser")
    return [Action(name="apply", agent=actor, visible_to=present or (actor,),
                   effects=(eff("in", bomb, "defused"), eff("contents", room, "none"), eff("seq", bomb, "none"),
                            eff("changed", bomb, "yes"), eff("last_defusal", bomb, f"turn_{turn}"),
                            eff("last_defuser", bomb, actor))),
            Observe(agents=EVERYONE, fluents=(*((p, bomb) for p in fl), ("contents", room)),
                    given=Condition(fluent=("in", bomb), values=(room,))),
            *(Possible(agent=actor, observers=EVERYONE, fluents=tuple((p, b) for p in fl),
                       values=("defused", "none", "yes", f"turn_{turn}", actor),
                       given=(Condition(fluent=("in", b), values=(room,)), Condition(fluent=("seq", b), values=last)))
              for b in BOMBS),
            Observe(agents=EVERYONE, fluents=(("contents", room),))]


def post(sender):
    """``sender`` posts a message (only it sees itself do so); its delivery comes later (:func:`said`)."""
    return Action(name="say", agent=sender, visible_to=(sender,))


def said(sender, as_of, *claims):
    """A message delivered now, posted at event ``as_of`` (its claims formed then)."""
    return Announce(sender=sender, audience=tuple(a for a in EVERYONE if a != sender), as_of=as_of,
                    content=tuple(Content(predicate=p, subject=(s,), value=v) for p, s, v in claims))


def truth(events, rules=RULES):
    return check(Trace(events, meta={"constraints": rules}))


# --- 1. seeing a bomb named does not reset others' elimination ------------------------------------------------

def test_1_a_teammates_look_alpha_did_not_share_does_not_widen_what_alpha_knows():
    """Alpha saw Room 0 (Bomb 1) and Room 6 (empty): Bomb 2 is in Room 5, its set {bomb_2}. Charlie then looks
    into Room 5, witnessed by Alpha. Alpha's observations are the same as before: still {bomb_2}, known (the old
    kernel widened Bomb 2's set to "defused" too, because an update of (in bomb_2) it merely witnessed
    appeared: {bomb_2, none}, not known)."""
    events = [setup(bomb_1="room_0", bomb_2="room_5"), look("alpha", "room_0", "bomb_1"), look("alpha", "room_6"),
              look("charlie", "room_5", "bomb_2")]
    t = truth(events)
    f = ("contents", "room_5")
    assert t.possible("alpha", f, at=2) == t.possible("alpha", f) == {"bomb_2"}
    assert t.possible("alpha", ("in", "bomb_2")) == {"room_5"}
    assert t.knows("alpha", f) and t.knows("charlie", f)


# --- 2. knowledge never comes from the hidden world -----------------------------------------------------------

def test_2_which_bomb_vanished_is_not_leaked_to_who_did_not_know():
    """Bravo saw Room 0 empty, never Rooms 5 or 6. Charlie defuses the bomb in Room 5 (Bomb 1): the score tells
    everyone that Room 5's bomb is gone, not which; only who believed Bomb 1 was there learns it. Bravo knows
    Room 5 is empty now, but not what Room 6 holds, and Bombs 1 and 2 look the same to it (the old kernel read
    "an update of (in bomb_1) happened" off the conditional observation naming the real bomb, so Bravo knew
    Room 6 held Bomb 2)."""
    events = [setup(bomb_1="room_5", bomb_2="room_6"), look("bravo", "room_0"), *vanish("charlie", "bomb_1", "room_5", 3)]
    t = truth(events)
    assert t.knows("bravo", ("contents", "room_5"))
    assert not t.knows("bravo", ("contents", "room_6"))
    assert t.possible("bravo", ("in", "bomb_1")) == t.possible("bravo", ("in", "bomb_2")) == {"room_6", "defused"}
    assert t.possible("bravo", ("contents", "room_6")) == {"bomb_1", "bomb_2", "none"}
    # alpha, who had seen Bomb 1 in Room 5, learns which bomb it was, and so what Room 6 holds
    t2 = truth(events[:2] + [look("alpha", "room_5", "bomb_1")] + events[2:])
    assert t2.knows("alpha", ("in", "bomb_1")) and t2.possible("alpha", ("in", "bomb_2")) == {"room_0", "room_6"}


# --- 3. functional links: a defused bomb has no remaining sequence ---------------------------------------------

def test_3_known_defused_gives_the_sequence_by_the_declared_link():
    """Bravo learns Bomb 1 is defused by elimination (the bomb vanished from Room 6, and Bravo had placed it there
    by elimination: Room 0 empty, Bomb 2 in Room 5), without seeing its sequence. The link
    ``in = defused <=> seq = none`` gives the sequence and ``in = defused => changed = yes`` the change; without
    the links (the rules before issue 28) the sequence stayed unknown."""
    events = [setup(bomb_1="room_6", bomb_2="room_5"), look("bravo", "room_0"), look("bravo", "room_5", "bomb_2"),
              *vanish("alpha", "bomb_1", "room_6", 4)]
    # (without the observation that tells whoever believed Bomb 1 was in Room 6 which bomb vanished: Bravo
    # would draw it, and see the sequence)
    events = [e for e in events if not (e.kind == "observe" and ("in", "bomb_1") in e.fluents and e.agents == EVERYONE)]
    t, old = truth(events), truth(events, UNLINKED)
    assert t.possible("bravo", ("in", "bomb_1")) == {"defused"} and t.knows("bravo", ("in", "bomb_1"))
    assert t.value(("bravo",), ("seq", "bomb_1")) is not None  # unsure: it never read the sequence
    assert t.possible("bravo", ("seq", "bomb_1")) == {"none"} and t.knows("bravo", ("seq", "bomb_1"))
    assert t.knows("bravo", ("changed", "bomb_1"))
    assert old.knows("bravo", ("in", "bomb_1")) and not old.knows("bravo", ("seq", "bomb_1"))


def test_3_reverse_a_stale_location_believed_later_defeats_the_known_sequence():
    """Alpha saw Bomb 1 vanish (it knows its sequence is none). Charlie's "Bomb 1 is in Room 6", posted after the
    vanish (stale: Charlie's record lagged), is delivered: Alpha believes the bomb is in Room 6, which the link
    makes a bomb with a sequence, so Alpha no longer knows the sequence is none (the old kernel, without the link,
    still said it knew). Posted before the vanish, the report is older than Alpha's own sight and defeats nothing
    (class 8)."""
    base = [setup(bomb_1="room_6", bomb_2="room_5"), look("alpha", "room_6", "bomb_1"),
            *vanish("bravo", "bomb_1", "room_6", 3, present=("alpha", "bravo"))]
    n = len(base)
    late = truth(base + [post("charlie"), said("charlie", n, ("in", "bomb_1", "room_6"))])
    early = truth(base[:2] + [post("charlie")] + base[2:] + [said("charlie", 2, ("in", "bomb_1", "room_6"))])
    old = truth(base + [post("charlie"), said("charlie", n, ("in", "bomb_1", "room_6"))], UNLINKED)
    f = ("seq", "bomb_1")
    assert truth(base).knows("alpha", f)
    assert late.value(("alpha",), ("in", "bomb_1")) == "room_6" and late.value(("alpha",), f) == "none"
    assert not late.knows("alpha", f)
    assert early.knows("alpha", f) and not early.knows("alpha", ("in", "bomb_1"))
    assert old.knows("alpha", f)


# --- 4. a no-change event changes no possible set ---------------------------------------------------------------

def test_4_a_teammates_stay_leaves_a_known_change_known():
    """Bravo knows Bomb 2 changed (it read red,red,blue then red,blue). Charlie (who can cut red) then stays in
    Room 5 with it: if Charlie cut a phase, Bomb 2 changed (outcome "yes"): the possible set stays {yes} and Bravo
    still knows (the old kernel: "changed" had no declared domain, so the stay made Bravo unsure)."""
    events = [setup(bomb_1="room_0", bomb_2="room_5", seqs={"bomb_2": "red,red,blue"}),
              look("bravo", "room_5", "bomb_2"), Observe(agents=("bravo",), fluents=(("seq", "bomb_2"),)),
              *stay("alpha", "room_5", 3),
              Action(name="apply", agent="alpha", visible_to=("alpha",),
                     effects=(eff("seq", "bomb_2", "red,blue"), eff("changed", "bomb_2", "yes"),
                              eff("last_defusal", "bomb_2", "turn_3"), eff("last_defuser", "bomb_2", "alpha"))),
              Observe(agents=("bravo",), fluents=(("changed", "bomb_2"),),
                      given=Condition(fluent=("seq", "bomb_2"), values=("red,red,blue",))),
              Observe(agents=("bravo",), fluents=(("seq", "bomb_2"),))]
    before = len(events) - 1
    events += stay("charlie", "room_5", 6)
    t = truth(events)
    f = ("changed", "bomb_2")
    assert t.knows("bravo", f, at=before) and t.possible("bravo", f, at=before) == {"yes"}
    assert t.value(("bravo",), f) is not None and t.possible("bravo", f) == {"yes"} and t.knows("bravo", f)
    assert not t.knows("bravo", ("seq", "bomb_2"))  # the sequence, though, Charlie may have cut
    # a stay where Bravo knows the bomb is not (Room 0 for Bomb 2) changes no possible set at all
    quiet = truth(events[:before + 1] + stay("charlie", "room_0", 6))
    for g in (f, ("seq", "bomb_2"), ("in", "bomb_2"), ("contents", "room_5"), ("last_defuser", "bomb_2")):
        assert quiet.possible("bravo", g) == t.possible("bravo", g, at=before), g


# --- 5. one's own stay does not block awareness ----------------------------------------------------------------

def test_5_alpha_staying_leaves_bravo_aware_that_alpha_knows():
    """Alpha read Bomb 2's sequence and told the team (truthful: it knew what it said), so Bravo is aware that
    Alpha knows it. Alpha then merely stays: Alpha knows what it did, so the stay is no change Alpha missed
    (logic.md: only a change A missed counts against), and Bravo stays aware (the old kernel: No)."""
    events = [setup(bomb_1="room_0", bomb_2="room_5", seqs={"bomb_2": "red,red"}), look("alpha", "room_5", "bomb_2"),
              Observe(agents=("alpha",), fluents=(("seq", "bomb_2"),)),
              said("alpha", 2, ("seq", "bomb_2", "red,red"))]
    before = len(events) - 1
    events += stay("alpha", "room_5", 3)
    t = truth(events)
    f = ("seq", "bomb_2")
    assert t.aware_that_knows("bravo", "alpha", f, at=before)
    assert t.knows("alpha", f) and t.aware_that_knows("bravo", "alpha", f)
    assert not t.knows("bravo", f)  # Bravo itself cannot tell whether Alpha cut it
    # a teammate's stay (Charlie, who can cut red) is a change Alpha may have missed: not aware
    other = truth(events[:before + 1] + stay("charlie", "room_5", 3))
    assert not other.knows("alpha", f) and not other.aware_that_knows("bravo", "alpha", f)


# --- 6. the cut turn and the cutter from one's own two readings ------------------------------------------------

def test_6_two_readings_tell_when_and_by_whom_the_bomb_was_cut():
    """Bravo reads Bomb 2 as red,red; Bravo, Alpha and Charlie stay in turn (Bravo cannot cut red; Charlie's stay
    is elsewhere), Alpha cuts unseen; Bravo reads red. Only Alpha could have cut between the readings, at turn 4:
    Bravo knows the cut turn and the cutter (the old kernel: Bravo's own stay between the readings counted as a
    change it missed, so neither)."""
    events = [setup(bomb_1="room_0", bomb_2="room_5", seqs={"bomb_2": "red,red"}), look("bravo", "room_5", "bomb_2"),
              Observe(agents=("bravo",), fluents=(("seq", "bomb_2"),)),
              *stay("bravo", "room_5", 3), *stay("alpha", "room_5", 4),
              Action(name="apply", agent="alpha", visible_to=("alpha",),
                     effects=(eff("seq", "bomb_2", "red"), eff("changed", "bomb_2", "yes"),
                              eff("last_defusal", "bomb_2", "turn_4"), eff("last_defuser", "bomb_2", "alpha"))),
              *stay("charlie", "room_0", 5),
              Observe(agents=("bravo",), fluents=(("seq", "bomb_2"),))]
    t = truth(events)
    assert t.possible("bravo", ("last_defusal", "bomb_2")) == {"turn_4"}
    assert t.possible("bravo", ("last_defuser", "bomb_2")) == {"alpha"}
    assert t.knows("bravo", ("last_defusal", "bomb_2")) and t.knows("bravo", ("last_defuser", "bomb_2"))
    assert not t.knows("bravo", ("last_defuser", "bomb_2"), at=len(events) - 2)  # before the second reading


# --- 7. awareness implies believing that the other believes the true value -------------------------------------

def test_7_aware_that_alpha_knows_only_when_bravo_believes_alpha_believes_it():
    """Bravo and Charlie saw Alpha alone with Bomb 1 when it vanished (they knew it was there): Bravo is aware that
    Alpha knows its sequence is none. Alpha's "Bomb 1: red,red", posted before the vanish, is delivered now:
    Bravo believes Alpha believes red,red. It is then not aware that Alpha knows none (the old kernel's guard
    applied to one-agent chains only: aware, while believing Alpha believes red,red)."""
    events = [setup(bomb_1="room_6", bomb_2="room_5", seqs={"bomb_1": "red"}), look("bravo", "room_6", "bomb_1"),
              look("alpha", "room_6", "bomb_1"), Observe(agents=("alpha",), fluents=(("seq", "bomb_1"),)),
              post("alpha"), *vanish("alpha", "bomb_1", "room_6", 4)]
    before = len(events) - 1
    events += [said("alpha", 4, ("seq", "bomb_1", "red"))]
    t = truth(events)
    f = ("seq", "bomb_1")
    assert t.aware_that_knows("bravo", "alpha", f, at=before) and t.value(("bravo", "alpha"), f, at=before) == "none"
    assert t.value(("bravo", "alpha"), f) == "red" and t.knows("alpha", f)
    assert not t.aware_that_knows("bravo", "alpha", f)


# --- 8. defeat compares when beliefs were formed ------------------------------------------------------------------

def test_8_ones_own_sight_outranks_an_older_report_delivered_later():
    """Bravo defused Bomb 1 in Room 5 itself and sees the room empty. Charlie's "Bomb 1 is in Room 5", posted
    before that (as_of), is delivered a turn later: Bravo's sight is the newer belief, so Bravo still knows Room 5
    is empty (the old kernel compared delivery times: not known). Posted after the sight, the same report is the
    newer belief and defeats it. A report of Room 5's contents itself replaces Bravo's belief of them (beliefs
    follow delivery), and knowledge implies belief: not known either way."""
    base = [setup(bomb_1="room_5", bomb_2="room_6"), look("charlie", "room_5", "bomb_1"),
            look("bravo", "room_5", "bomb_1"), *vanish("bravo", "bomb_1", "room_5", 3)]
    n = len(base)
    f = ("contents", "room_5")
    older = truth(base[:2] + [post("charlie")] + base[2:] + [said("charlie", 2, ("in", "bomb_1", "room_5"))])
    newer = truth(base + [post("charlie"), said("charlie", n, ("in", "bomb_1", "room_5"))])
    assert older.value(("bravo",), ("in", "bomb_1")) == "room_5" and older.value(("bravo",), f) == "none"
    assert older.knows("bravo", f) and not older.knows("bravo", ("in", "bomb_1"))
    assert not newer.knows("bravo", f)
    named = truth(base[:2] + [post("charlie")] + base[2:] + [said("charlie", 2, ("contents", "room_5", "bomb_1"))])
    assert named.value(("bravo",), f) == "bomb_1" and not named.knows("bravo", f)
