import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from belief.envs import guandan
from belief.envs.guandan import environment as guandan_v0
from belief.envs.guandan.cards import DECK_SIZE
from belief.envs.guandan.events import PLAYERS, f_holds
from belief.errors import BeliefError
from belief.truth.checker import check


def test_api_test_with_four_agents():
    e = guandan.env(seed=1)
    assert len(e.possible_agents) == 4
    api_test(e, num_cycles=60)


def test_spaces_are_memoised_and_the_action_space_bounds_every_list():
    e = guandan_v0.raw_env(seed=0)
    assert e.observation_space("player_0") is e.observation_space("player_0")
    assert e.action_space("player_1").n == guandan_v0.N_ACTIONS


def _play(e, rng, steps=None):
    n = 0
    while not all(e.terminations.values()) and (steps is None or n < steps):
        a = e.agent_selection
        mask = e.infos[a]["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
        n += 1


def test_the_mask_matches_the_move_list_and_the_pass_only_when_following():
    e = guandan_v0.raw_env(seed=2)
    a = e.agent_selection
    mask = e.infos[a]["action_mask"]
    moves = e.infos[a]["moves"]
    assert mask[0] == 0 and mask[1:1 + len(moves)].all() and not mask[1 + len(moves):].any()
    assert all(not e.infos[b]["action_mask"].any() for b in PLAYERS if b != a)
    e.step(1)
    b = e.agent_selection
    assert b != a and e.infos[b]["action_mask"][0] == 1
    with pytest.raises(BeliefError):
        e.step(guandan_v0.N_ACTIONS - 1)


def test_text_observation_shows_hand_table_history_and_cards_left():
    e = guandan_v0.raw_env(seed=3)
    e.step(1)
    text = e.observe(e.agent_selection)["text"]
    assert "Your hand (27 cards)" in text and "Table: player_0 played" in text
    assert "Cards left: player_0 26" in text or "Cards left: player_0 2" in text
    assert "Recent plays: player_0:" in text and "Level rank: 2" in text


def test_a_game_ends_and_rewards_the_winning_team():
    e = guandan_v0.raw_env(seed=4)
    _play(e, random.Random(4))
    m = e.metrics()
    assert m["deals"] == 1 and m["winning_team"] in (0, 1) and m["upgrade"] in (1, 2, 3)
    win = [p for i, p in enumerate(PLAYERS) if i % 2 == m["winning_team"]]
    assert all(e._cumulative_rewards[p] == 1 for p in win) or all(e.rewards[p] == 1 for p in win)


def test_the_checker_knows_what_each_player_holds_and_what_is_public():
    e = guandan_v0.raw_env(seed=5)
    _play(e, random.Random(5), steps=6)
    truth = check(e.trace)
    hand0 = e.deal.hands[0]
    k = hand0[0]
    assert truth.believes(("player_0",), f_holds(k, "player_0"), "yes")
    assert truth.believes(("player_0",), f_holds(k, "player_2"), "no")        # own cards: nobody else has them
    assert not truth.known(("player_2",), f_holds(k, "player_0"))              # the partner does not know
    assert truth.knows_chain(("player_1", "player_0"), f_holds(k, "player_0"))  # everyone knows you see your hand
    played = sorted(e.played)
    assert played and all(truth.believes(("player_3", "player_1"), f_holds(c, p), "no")
                          for c in played for p in PLAYERS)


def test_must_beat_passes_on_a_single_rule_cards_out():
    e = guandan_v0.raw_env(seed=6, pass_rule="must_beat")
    rng = random.Random(6)
    for _ in range(400):
        if all(e.terminations.values()):
            break
        a = e.agent_selection
        mask = e.infos[a]["action_mask"]
        table = e.deal.table
        e.step(int(rng.choice(np.flatnonzero(mask))))
        if mask[0] and table is not None and table.kind == "single":  # a pass on a single
            assert np.flatnonzero(mask).tolist() == [0]  # must_beat: a pass only when nothing beats the table
            truth = check(e.trace)
            from belief.envs.guandan.cards import face, face_order
            higher = [k for k in range(DECK_SIZE) if k not in e.played
                      and face_order(face(k), e.deal.level) > table.key]
            assert higher and all(truth.believes(("player_0",), f_holds(k, a), "no") for k in higher)
            return
    pytest.fail("seed 6 under must_beat no longer reaches a pass on a single: pick a seed that does")


def test_two_deals_with_tribute_are_logged():
    e = guandan_v0.raw_env(seed=7, deals=2)
    _play(e, random.Random(7))
    names = [ev.name for ev in e.trace if ev.kind == "action"]
    assert names.count("deal") == 2 and names.count("end_deal") == 2
    assert "tribute" in names or any(ev.params.get("anti_tribute") for ev in e.trace
                                     if ev.kind == "action" and ev.name == "start_deal")
    assert sorted(sum(e.deal.hands, []) + sorted(e.played)) == list(range(DECK_SIZE))


def test_parallel_api_and_rules_modules_import_no_pettingzoo():
    import subprocess
    import sys

    from pettingzoo.test import parallel_api_test

    parallel_api_test(guandan.parallel_env(seed=2), num_cycles=30)
    code = ("import sys\nimport belief.envs.guandan.moves, belief.envs.guandan.match, belief.envs.guandan.tom\n"
            "print('pettingzoo' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr
