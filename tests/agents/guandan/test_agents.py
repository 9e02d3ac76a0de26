"""Guandan agents: legal actions always, the rule agent's choices, the recommender's score, the ToM planner's
beliefs and answers against the checker, the LLM agent through a loopback server."""

from collections import Counter

import numpy as np

from belief.agents.guandan.basic import GuandanKeeperAgent, GuandanRandomAgent, GuandanRuleAgent, keeps
from belief.agents.guandan.beliefs import HandBeliefs
from belief.agents.guandan.llm import GuandanLLMAgent
from belief.agents.guandan.recommender import recommend, score
from belief.agents.guandan.tom_planner import GuandanPlannerAgent, GuandanToMAgent
from belief.app.runners.guandan import GuandanConfig, matchup_figures, play_game, tom_figures
from belief.envs.guandan import environment as guandan_v0
from belief.envs.guandan.cards import parse_face
from belief.envs.guandan.combinations import Move
from belief.envs.guandan.events import PLAYERS
from belief.llm.client import LLMClient, LLMConfig
from belief.testing.llm_server import FakeOpenAI


def _play(agents, seed, steps=10_000):
    e = guandan_v0.raw_env(seed=seed, private_traces=False)
    n = 0
    while not all(e.terminations.values()) and n < steps:
        a = e.agent_selection
        for name, ag in agents.items():
            ag.perceive([], e.infos.get(name))
        action = agents[a].act(e.observe(a), e.infos[a])
        assert e.infos[a]["action_mask"][action] == 1
        e.step(action)
        n += 1
    return e


def test_every_agent_plays_legal_moves_to_the_end():
    kinds = [GuandanRandomAgent, GuandanRuleAgent, GuandanToMAgent, GuandanRuleAgent]
    e = _play({p: k(p) for p, k in zip(PLAYERS, kinds)}, seed=3)
    assert e.metrics()["winning_team"] in (0, 1)


def test_the_rule_agent_leads_the_longest_lowest_pattern_and_passes_on_its_partner():
    e = guandan_v0.raw_env(seed=0, private_traces=False)
    a = e.agent_selection
    info = e.infos[a]
    move = info["moves"][GuandanRuleAgent(a).act(None, info) - 1]
    plain = [m for m in info["moves"] if not m.is_bomb]
    assert not move.is_bomb and len(move.cards) == max(len(m.cards) for m in plain)
    assert move.key == min(m.key for m in plain if m.kind == move.kind and len(m.cards) == len(move.cards))
    low, high = Move("single", 1, (parse_face("3S"),)), Move("single", 5, (parse_face("7S"),))
    view = {"level": 0, "table": Move("single", 0, (parse_face("2S"),)), "partner": "player_2",
            "cards_left": {p: 10 for p in PLAYERS}}
    following = {"moves": [low, high], "action_mask": np.array([1, 1, 1])}
    assert GuandanRuleAgent("player_0").act(None, {**following, "obs": {**view, "table_owner": "player_2"}}) == 0
    assert GuandanRuleAgent("player_0").act(None, {**following, "obs": {**view, "table_owner": "player_1"}}) == 1


def test_the_recommender_prefers_finishing_then_shedding_without_wilds():
    hand = [parse_face(x) for x in "3S 3D 3C 9S 9H 2H".split()]   # level 2: 2H is wild
    faces = Counter(hand)
    finish = Move("single", 0, (parse_face("3S"),))
    assert score(Move("full_house", 1, tuple(sorted(hand[:5]))), faces, 0) > score(finish, faces, 0)
    one = Counter([parse_face("3S")])
    assert score(finish, one, 0) >= 100
    pair_wild = Move("pair", 7, tuple(sorted([parse_face("9S"), parse_face("2H")])))
    pair_plain = Move("pair", 7, tuple(sorted([parse_face("9S"), parse_face("9H")])))
    assert score(pair_plain, faces, 0) > score(pair_wild, faces, 0)
    ids = [f for f in hand]  # faces as ids of the first deck
    assert len(recommend([finish, pair_plain, pair_wild], ids, 0, k=2)) == 2


def test_the_planner_answers_match_the_checker_on_public_and_own_knowledge():
    r = play_game(GuandanConfig("tom", "rule"), seed=2)
    rows = r["tom_rows"]
    assert rows and {row["type"] for row in rows} == {"introspection", "first_order", "second_order"}
    intro = [row for row in rows if row["type"] == "introspection"]
    # introspection is the planner's own knowledge, the same observation model as the trace: exact
    assert all(row["answers"]["planner"] == row["gold"] for row in intro)
    figures = tom_figures([r])
    assert figures["by_order"]["overall"]["planner"]["accuracy"] >= figures["by_order"]["overall"]["majority"][
        "accuracy"]


def test_hand_beliefs_from_a_view():
    e = guandan_v0.raw_env(seed=5, private_traces=False)
    view = e.infos["player_0"]["obs"]
    b = HandBeliefs(view)
    k = view["hand"][0]
    assert b.known[k] == "player_0" and k in b.excluded["player_1"]
    assert set(b.possible_cards("player_1")).isdisjoint(view["hand"])
    table = Move("single", 15, (53,))                      # a red joker single: nothing beats it but bombs
    assert b.p_can_beat("player_1", Move("single", 0, (0,))) > 0.9
    assert b.p_can_beat("player_1", table, samples=4) <= 1.0


def test_matchup_figures_swap_seats():
    rows = [{"win": 1, "level_gain": 2, "swap": False, "turns": 10}, {"win": 0, "level_gain": -1, "swap": True,
                                                                        "turns": 12}]
    f = matchup_figures("tom", "rule", rows)
    assert f["win_rate"] == 0.5 and f["by_seats"]["0/2"]["wins"] == 1 and f["by_seats"]["1/3"]["wins"] == 0
    assert f["ci95"][0] < 0.5 < f["ci95"][1]


def test_the_llm_agent_picks_among_the_top_k_through_a_loopback_server():
    e = guandan_v0.raw_env(seed=1, private_traces=False)
    a = e.agent_selection
    with FakeOpenAI(["2", "no number here"]) as srv:
        agent = GuandanLLMAgent(a, LLMClient(LLMConfig(base_url=srv.base_url, model="fake", api_key="x",
                                                       cache=False)))
        options = agent.options(e.infos[a])
        assert agent.act(None, e.infos[a]) == options[1][0]
        prompt = srv.requests[0]["messages"][1]["content"]
        assert "Options:" in prompt and "Your hand (27 cards)" in prompt
        fallback = agent.act(None, e.infos[a])
        assert agent.fallbacks == 1 and e.infos[a]["action_mask"][fallback] == 1


def test_ablation_and_keeper_play_legal_moves_to_the_end():
    kinds = [GuandanPlannerAgent, GuandanKeeperAgent, GuandanPlannerAgent, GuandanKeeperAgent]
    e = _play({p: k(p) for p, k in zip(PLAYERS, kinds)}, seed=5)
    assert e.metrics()["winning_team"] in (0, 1)


def test_keeper_spends_no_wild_and_breaks_no_bomb_when_it_need_not():
    level = 0                                           # twos are the level: the heart two is wild
    wild = parse_face("2h")
    hand = Counter({parse_face(f): 1 for f in ("5s", "5h", "5c", "5d", "9s")})
    hand[wild] = 1
    assert keeps(Move("single", 7, (parse_face("9s"),)), hand, level)
    assert not keeps(Move("single", 3, (parse_face("5s"),)), hand, level)          # breaks the bomb of fives
    assert not keeps(Move("pair", 7, (parse_face("9s"), wild)), hand, level)       # spends the wild
    assert keeps(Move("bomb", 3, tuple(parse_face(f) for f in ("5s", "5h", "5c", "5d"))), hand, level)


def test_planner_is_the_tom_planner_without_its_belief_branches():
    """Where no belief branch applies (nobody close to finishing), the ablation and the full planner agree."""
    e = guandan_v0.raw_env(seed=2, private_traces=False)
    a = e.agent_selection
    assert GuandanPlannerAgent(a).act(e.observe(a), e.infos[a]) == GuandanToMAgent(a).act(e.observe(a), e.infos[a])
    assert GuandanPlannerAgent.use_beliefs is False and GuandanToMAgent.use_beliefs is True
