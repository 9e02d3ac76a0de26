"""The belief chef's model of what its partner has seen (agents/overcooked/partner_sight.py): hand-worked cases on
a corridor, and the chef's answers against the checker's gold on the global trace."""

from fractions import Fraction

import numpy as np
import pytest

from belief.agents.overcooked.partner_sight import PartnerSight, random_walk, steered_walk
from belief.envs.overcooked.events import f_counter

# a corridor of six floor cells (0, 0) .. (5, 0); the counter X at (5, 1) is seen (fov 1) from (4, 0) and (5, 0)
CELLS = [(x, 0) for x in range(6)]
NEIGHBOURS = {c: [(c[0] + d, 0) for d in (-1, 1) if 0 <= c[0] + d < 6] for c in CELLS}
X = (5, 1)
FX = f_counter(X)
ME = (0, 0)  # the chef stands here and sees (0, 0) and (1, 0)
WALK = random_walk(CELLS, NEIGHBOURS)  # stay or step to each neighbour, alike


def corridor(start=(2, 0)) -> PartnerSight:
    s = PartnerSight(CELLS, NEIGHBOURS, fov=1, start=start)
    s.observe(None, ME)
    s.track(FX, X, "empty")
    return s


def close(p, q) -> bool:
    return abs(p - float(q)) < 1e-12


def test_the_unseen_partner_walks_and_may_see_the_far_counter():
    """Worked by hand. Start: the partner at (2, 0), never saw X. Step 1: it stays, or goes to (1, 0) or (3, 0)
    (1/3 each); the chef does not see it, so not (1, 0): (2, 0) and (3, 0), 1/2 each; neither sees X: 0.
    Step 2: (1, 0) 1/6, (2, 0) 1/3, (3, 0) 1/3, (4, 0) 1/6; not (1, 0): 2/5, 2/5, 1/5; from (4, 0) it sees X: 1/5.
    Step 3: the 1/5 that saw X goes to (3, 0), (4, 0), (5, 0) (1/15 each); the rest to (1, 0) 2/15, (2, 0) 4/15,
    (3, 0) 4/15, (4, 0) 2/15; not (1, 0) (13/15 remain); has seen X: 3/15 + 2/15 (at (4, 0) now): 5/13."""
    s = corridor()
    assert s.knows(FX) == 0.0
    expected = [Fraction(0), Fraction(1, 5), Fraction(5, 13)]
    for want in expected:
        s.step({}, transition=WALK, my_view=ME)
        assert close(s.knows(FX), want), (s.knows(FX), want)
    assert close(s.p[CELLS.index((1, 0))], 0) and close(s.p.sum(), 1)


def test_a_partner_seen_again_where_it_cannot_have_been_near_x_does_not_know():
    """Continuing the walk above, the chef sees its partner at (1, 0): it came from (2, 0) (cells (3, 0) .. (5, 0)
    cannot reach it in a step), where it had never seen X."""
    s = corridor()
    for _ in range(3):
        s.step({}, transition=WALK, my_view=ME)
    s.step({}, transition=WALK, partner_at=(1, 0), my_view=ME)
    assert s.knows(FX) == 0.0 and s.p[CELLS.index((1, 0))] == 1.0


def test_partner_seen_next_to_x_after_it_changed_knows():
    s = corridor()
    s.step({FX: (X, "onion")}, transition=WALK, my_view=ME)  # the chef learns X now holds an onion
    s.step({}, transition=WALK, partner_at=(4, 0), my_view=(3, 0))  # and sees its partner beside X
    assert s.knows(FX) == 1.0


def test_a_change_the_partner_missed_in_sight_of_the_chef_is_not_known():
    s = corridor(start=(1, 0))
    s.step({}, transition=WALK, partner_at=(1, 0), my_view=ME)
    s.step({FX: (X, "onion")}, transition=WALK, partner_at=(1, 0), my_view=ME)  # it stood far from X
    assert s.knows(FX) == 0.0


def test_a_change_the_chef_finds_was_the_partners_doing():
    s = corridor()
    s.made_by_partner(FX, "soup")
    assert s.knows(FX) == 1.0


def test_its_hand_places_the_unseen_partner():
    """A change of X the chef saw and did not make: the partner stands at a spot of X ((5, 0)), so it knows X."""
    s = corridor(start=(4, 0))
    s.step({FX: (X, "dish")}, transition=WALK, my_view=ME, partner_hand=[(5, 0)])
    assert s.p[CELLS.index((5, 0))] == 1.0 and s.knows(FX) == 1.0


def test_the_steered_walk_weighs_moves_toward_the_errand():
    """Toward a spot at (5, 0) from (2, 0): closer (3, 0) 0.7, staying 0.25, away (1, 0) 0.05 (they sum to 1)."""
    dist = {c: 5 - c[0] for c in CELLS}
    t = steered_walk(CELLS, NEIGHBOURS, {"serve": (1.0, dist)}, wander=0.0)
    row = t[CELLS.index((2, 0))]
    assert np.allclose([row[CELLS.index((1, 0))], row[CELLS.index((2, 0))], row[CELLS.index((3, 0))]],
                       [0.05, 0.25, 0.7])
    assert np.allclose(t.sum(axis=1), 1.0)


@pytest.mark.parametrize("layout", ["asymmetric_advantages", "counter_circuit"])
def test_the_chef_answers_does_my_partner_know_against_the_checker(layout):
    """A partial-view episode: every selected first-order question the belief chef answers, beside the checker's
    gold on the global trace (the bench's rows); the partner model does at least as well as the private record
    alone (the no-inference answer), and a chef always knows where it is and what it holds."""
    pytest.importorskip("overcooked_ai_py")
    from belief.app.runners.overcooked import OvercookedConfig, play_episode

    r = play_episode(OvercookedConfig(layout=layout, horizon=60, fov=2, ask_every=10), 0)
    rows = [x for x in r["tom_rows"] if x.get("set") == "selected" and x["type"].startswith("knows/")]
    assert rows
    right = sum(x["answers"]["belief"] == x["gold"] for x in rows)
    record = sum(x["answers"]["no_inference"] == x["gold"] for x in rows)
    assert right >= record and right >= 0.9 * len(rows)


def test_a_chef_knows_its_own_place_and_hand():
    pytest.importorskip("overcooked_ai_py")
    from belief.agents.overcooked.belief import BeliefChef

    chef = BeliefChef("alice", "bob", "cramped_room")
    assert chef.partner_knows(("at", "bob")) == 1.0 and chef.partner_knows(("holds", "bob")) == 1.0
    assert chef.partner_knows(FX) is None  # nothing followed before the first view
