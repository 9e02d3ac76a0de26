"""Hanabi card knowledge answered by the general checker, against hand-derived answers."""

from belief.truth.checker import check
from belief.envs.hanabi import environment as hanabi_v0
from belief.envs.hanabi.events import f_colour, f_has_colour, f_rank
from belief.envs.hanabi.world import COLOURS, Move
from belief.envs.hanabi.tom import questions
from belief.truth.filter import private_trace

SEED = 12  # bob's first hand holds five different colours


def hint(colour=None, rank=None) -> int:
    return Move("hint_colour", COLOURS.index(colour)).action if colour else Move("hint_rank", rank - 1).action


def test_seeing_the_partners_hand_is_first_order_knowledge():
    e = hanabi_v0.raw_env(seed=SEED)
    truth = check(e.trace)
    a0 = e.game.hands["alice"][0]
    assert not truth.knows("alice", f_colour(a0))          # nobody sees their own cards
    assert truth.knows("bob", f_colour(a0)) and truth.knows("bob", f_rank(a0))
    assert truth.knows_chain(("alice", "bob"), f_colour(a0))  # alice knows bob sees her card
    assert not truth.knows_chain(("bob", "alice"), f_colour(a0))


def test_a_hint_is_common_knowledge_with_its_negative_information():
    e = hanabi_v0.raw_env(seed=SEED)
    g = e.game
    bob = g.hands["bob"]
    touched, untouched = bob[0], bob[1]
    colour = g.cards[touched].colour
    e.step(hint(colour=colour))
    truth = check(e.trace)
    assert truth.knows("bob", f_colour(touched))
    assert truth.value(("bob",), f_has_colour(untouched, colour)) == "no"
    assert truth.knows("bob", f_has_colour(untouched, colour)) and not truth.knows("bob", f_colour(untouched))
    assert truth.knows_chain(("alice", "bob"), f_colour(touched))     # alice knows that bob knows
    assert truth.knows_chain(("bob", "alice", "bob"), f_colour(touched))
    assert not truth.knows("bob", f_rank(touched))
    # alice's own record gives the same answers
    mine = check(private_trace(e.trace, "alice"))
    assert mine.knows("bob", f_colour(touched)) and not mine.knows("bob", f_colour(untouched))


def test_four_negative_hints_entail_the_colour():
    e = hanabi_v0.raw_env(seed=SEED)
    g = e.game
    target = g.hands["bob"][2]
    others = [g.cards[k].colour for k in g.hands["bob"] if k != target]
    for i, colour in enumerate(others):
        truth = check(e.trace)
        assert not truth.knows("bob", f_colour(target))
        e.step(hint(colour=colour))
        if i < len(others) - 1:  # bob answers with any legal hint to alice
            e.step(next(a for a in range(10, 20) if e.game.legal("bob")[a]))
    truth = check(e.trace)
    assert truth.knows("bob", f_colour(target)) and truth.knows_chain(("alice", "bob"), f_colour(target))
    # by elimination under the game's rules (trace meta "constraints"), not from an event that names the colour
    assert truth.possible(("bob",), f_colour(target)) == {g.cards[target].colour}
    assert truth.value(("bob",), f_colour(target)) is None


def test_a_played_card_is_revealed_and_the_drawn_card_seen_by_the_partner():
    e = hanabi_v0.raw_env(seed=SEED)
    g = e.game
    played = g.hands["alice"][0]
    e.step(Move("play", 0).action)
    drawn = g.hands["alice"][0]
    truth = check(e.trace)
    assert truth.knows("alice", f_colour(played)) and truth.knows_chain(("bob", "alice"), f_rank(played))
    assert truth.knows("bob", f_colour(drawn)) and not truth.knows("alice", f_colour(drawn))


def _hand_worked(truth, q) -> bool:
    """The three levels stated by hand: the chain of the level, on the template's fluent, asked of the checker."""
    chain = {"introspection": (q.asked,), "first_order": (q.target,), "second_order": (q.target, q.asked)}[q.level]
    fluent = {"colour": lambda: f_colour(q.card), "rank": lambda: f_rank(q.card),
              "is_colour": lambda: f_has_colour(q.card, q.value),
              "is_rank": lambda: ("has_rank", f"card_{q.card}", str(q.value))}[q.template]()
    return truth.knows_chain(chain, fluent, q.t)


def test_questions_are_labelled_by_the_checker_and_reproducible():
    e = hanabi_v0.raw_env(seed=SEED)
    g = e.game
    e.step(hint(colour=g.cards[g.hands["bob"][0]].colour))
    bob_hand = list(g.hands["bob"])
    e.step(Move("play", 0).action)
    qs = questions(e.trace)
    assert [q.to_json() for q in qs] == [q.to_json() for q in questions(e.trace)]
    assert {q.level for q in qs} == {"introspection", "first_order", "second_order"}
    truth = check(e.trace)
    for q in qs:
        assert q.answer == _hand_worked(truth, q)
        assert q.text.endswith("?")
    first = next(q for q in qs if q.turn == 0 and q.level == "first_order")
    assert first.asked == "alice" and first.target == "bob" and first.card == bob_hand[first.slot]
    # a longer game (a conventional table): both answers occur, so the comparison is not vacuous
    from belief.app.runners.hanabi import make_agents

    e = hanabi_v0.raw_env(seed=SEED)
    agents = make_agents("conventional", e.possible_agents)
    for _ in range(20):
        name = e.agent_selection
        for n, ag in agents.items():
            ag.perceive(e.take_perceived(n), e.infos[n])
        e.step(agents[name].act(e.observe(name), e.infos[name]))
    truth = check(e.trace)
    answers = [(q.answer, _hand_worked(truth, q)) for q in questions(e.trace)]
    assert all(a == b for a, b in answers) and {a for a, _ in answers} == {True, False}
