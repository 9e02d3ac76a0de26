"""The selected set: picked by the checker and the panel (never by the hint bookkeeping), gold derived here from
the checker's own queries, Hanabi's hint-record shortcut hand-worked, every template balanced."""

from collections import Counter

from belief.envs.hanabi import environment as hanabi_env
from belief.envs.hanabi.knowledge import HintKnowledge
from belief.envs.hanabi.tom import SelectedSet, hint_record_answer, selected_questions
from belief.envs.hanabi.world import COLOURS, Move
from belief.grading.questions import Question
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


def _played(seed: int, moves: int = 30):
    from belief.app.runners.hanabi import make_agents

    e = hanabi_env.raw_env(seed=seed)
    agents = make_agents("conventional", e.possible_agents)
    for _ in range(moves):
        if all(e.terminations.values()):
            break
        name = e.agent_selection
        for n, ag in agents.items():
            ag.perceive(e.take_perceived(n), e.infos[n])
        e.step(agents[name].act(e.observe(name), e.infos[name]))
    return e


def test_selected_gold_is_the_checkers_and_pure():
    e = _played(3)
    qs = selected_questions(e.trace)
    assert qs and [q.to_json() for q in qs] == [q.to_json() for q in selected_questions(e.trace)]
    truth = check(e.trace)
    for q in qs:
        g = q.question
        assert q.gold == ("yes" if truth.knows_chain(g.chain, g.fluent, q.t) else "no")
        assert g.chain != (q.asked,) and g.agent == q.asked and q.text.endswith("?")
    by = Counter((q.template, q.gold) for q in qs)
    for template in {q.template for q in qs}:  # balanced: neither answer above 60% of a template
        n = by[(template, "yes")] + by[(template, "no")]
        assert max(by[(template, "yes")], by[(template, "no")]) <= 0.6 * n
        for s in ("reality", "as_self", "depth_collapse", "public_record", "hint_record"):
            right = sum(q.shortcuts[s] == q.gold for q in qs if q.template == template)
            assert right <= 0.6 * n, (template, s)


def test_hint_record_reads_negative_hints_hand_worked():
    e, target = eliminated_game()
    hinted = HintKnowledge()
    for ev in e.trace:
        if ev.kind == "action" and ev.name == "hint":
            hinted.apply_hint(ev.params)
    answer = hint_record_answer(hinted)
    knows = lambda card, what: Question(id="q", kind="knows", chain=("bob",), fluent=(what, f"card_{card}"))  # noqa: E731
    # four colours ruled out: the hint record says bob knows the fifth (as does the checker, by elimination)
    assert answer(knows(target, "colour")) == "yes"
    assert check(e.trace).knows_chain(("bob",), ("colour", f"card_{target}"))
    assert answer(knows(target, "rank")) == "no"  # no rank hint


def test_cards_are_never_chosen_by_the_hint_record():
    """The hint-record shortcut is one of the balanced shortcuts: on each template it gets at most 60% right."""
    e, _ = eliminated_game()
    sampler = SelectedSet(e.trace.meta)
    asked = [q for ev in e.trace for q in sampler.feed(ev)]
    kept = sampler.kept()
    assert asked and kept <= {q.id for q in asked}
    rows = [q for q in asked if q.id in kept]
    for template in {q.template for q in rows}:
        mine = [q for q in rows if q.template == template]
        assert sum(q.shortcuts["hint_record"] == q.gold for q in mine) <= 0.6 * len(mine)
