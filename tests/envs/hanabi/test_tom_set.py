"""The ToM set: elimination, seen and third-order questions, answered by the checker, beside trivial answerers."""

from belief.envs.hanabi import environment as hanabi_env
from belief.envs.hanabi.world import COLOURS, Move
from belief.envs.hanabi.tom import TOM_TYPES, answer, positive_record, tom_questions, trivial_answers
from belief.grading.trivial import tom_table
from belief.truth.checker import check

SEED = 12  # bob's first hand holds five different colours


def eliminated_game():
    """Alice hints bob four colours his card in slot 2 is not; bob hints back each time."""
    e = hanabi_env.raw_env(seed=SEED)
    g = e.game
    target = g.hands["bob"][2]
    for colour in [g.cards[k].colour for k in g.hands["bob"] if k != target]:
        e.step(Move("hint_colour", COLOURS.index(colour)).action)
        e.step(next(a for a in range(10, 20) if e.game.legal("bob")[a]))
    return e, target


def test_elimination_question_needs_the_negative_hints():
    e, target = eliminated_game()
    qs = tom_questions(e.trace)
    assert {q.level for q in qs} <= set(TOM_TYPES)
    truth = check(e.trace)
    named = positive_record(e.trace)
    known = [q for q in qs if q.level == "elimination" and q.card == target and q.template == "colour"
             and q.answer]
    assert known, "the colour known by elimination is asked about"
    for q in known:
        assert q.answer == answer(truth, q, q.t) is True
        assert trivial_answers(q, named, truth)["public_record"] is False  # no hint named its colour


def test_seen_questions_differ_from_the_record_and_from_oneself():
    e, _ = eliminated_game()
    qs = [q for q in tom_questions(e.trace) if q.level == "seen"]
    truth = check(e.trace)
    named = positive_record(e.trace)
    for q in qs:
        expected_yes = q.holder == q.asked  # the target sees the asker's cards
        if expected_yes:
            assert q.answer is True
    rows = [{"type": q.level, "gold": q.answer, "answers": trivial_answers(q, named, truth)} for q in qs]
    table = tom_table(rows)
    assert table["by_type"]["seen"]["as_self"]["accuracy"] < 0.8


def test_third_order_chain_is_target_you_target():
    e, _ = eliminated_game()
    third = [q for q in tom_questions(e.trace) if q.level == "third_order"]
    assert third and all(q.chain == (q.target, q.asked, q.target) for q in third)
    assert all("know that you know that" in q.text for q in third)
    assert [q.to_json() for q in tom_questions(e.trace)] == [q.to_json() for q in tom_questions(e.trace)]
