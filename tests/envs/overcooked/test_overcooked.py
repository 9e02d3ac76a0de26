"""overcooked_v0 on the overcooked-ai engine: the PettingZoo API on the five layouts, the extra, the trace
(full view: beliefs match the kitchen; partial view: a pot out of sight goes stale), the chefs, the questions
and the bench command. Short horizons keep it fast; the bench is where full horizons run."""
import json
import sys
import warnings

import pytest

pytest.importorskip("overcooked_ai_py")

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from belief.envs import overcooked  # noqa: E402
from belief.envs.overcooked.world import LAYOUTS, OvercookedError, engine  # noqa: E402
from belief.envs.overcooked.events import f_pot  # noqa: E402
from belief.errors import MissingExtraError  # noqa: E402
from belief.truth.checker import check  # noqa: E402


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_pettingzoo_api_on_every_layout(layout):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(overcooked.env(layout=layout, horizon=25), num_cycles=30)
        parallel_api_test(overcooked.parallel_env(layout=layout, horizon=25), num_cycles=30)
        parallel_api_test(overcooked.parallel_env(layout=layout, horizon=25, fov=1), num_cycles=30)


def test_driven_by_the_engine_and_truncated_at_the_horizon():
    e = overcooked.parallel_env(layout="cramped_room", horizon=5)
    e.reset(seed=0)
    assert type(e.oc).__module__.startswith("overcooked_ai_py")
    steps = 0
    while e.agents:
        *_, truncs, _ = e.step({"alice": 4, "bob": 4})
        steps += 1
    assert steps == 5 and all(truncs.values())


def test_text_view_and_render_modes():
    e = overcooked.parallel_env(layout="forced_coordination", horizon=5, render_mode="ansi")
    obs, infos = e.reset()
    assert "You are alice" in obs["alice"]["text"] and "Bob is at" in obs["alice"]["text"]
    assert "A" in e.render() and "B" in e.render()
    partial = overcooked.parallel_env(layout="cramped_room", fov=0)
    obs, _ = partial.reset()
    assert "You do not see bob" in obs["alice"]["text"] and "?" in obs["alice"]["text"]


def test_bad_settings_are_one_clear_error():
    with pytest.raises(OvercookedError, match="unknown Overcooked layout 'kitchen'"):
        overcooked.parallel_env(layout="kitchen")
    with pytest.raises(OvercookedError, match="fov"):
        overcooked.parallel_env(fov=-1)


def test_without_the_engine_the_error_names_the_extra(monkeypatch):
    engine.cache_clear()
    monkeypatch.setitem(sys.modules, "overcooked_ai_py", None)
    for name in [m for m in sys.modules if m.startswith("overcooked_ai_py.")]:
        monkeypatch.setitem(sys.modules, name, None)
    try:
        with pytest.raises(MissingExtraError, match=r"belief\[overcooked\]"):
            engine()
    finally:
        engine.cache_clear()


def _play(layout, pairing, horizon, **kw):
    from belief.app.runners.overcooked import OvercookedConfig, play_episode
    return play_episode(OvercookedConfig(layout=layout, pairing=pairing, horizon=horizon, **kw), 3, keep=True)


def test_full_view_beliefs_match_the_kitchen():
    r = _play("cramped_room", "belief+belief", 60, ask_every=20)
    truth = check(r["_trace"])
    pot = f_pot((2, 0))
    assert truth.reality(pot) != "empty"  # the chefs did fill it
    assert truth.value(("bob",), pot) == truth.reality(pot)
    assert truth.value(("alice", "bob"), pot) == truth.reality(pot)


def test_partial_view_leaves_beliefs_stale():
    r = _play("cramped_room", "belief+belief", 60, fov=1, ask_every=20)
    truth, pot = check(r["_trace"]), f_pot((2, 0))
    filled = [t for t in range(len(r["_trace"])) if truth.reality(pot, t) not in (None, "empty")]
    assert filled
    assert any(truth.value((c,), pot, t) != truth.reality(pot, t) for t in filled for c in ("alice", "bob"))
    assert any(truth.value((c,), pot, t) == truth.reality(pot, t) for t in filled for c in ("alice", "bob"))


def test_forced_coordination_needs_passing_and_the_belief_chefs_pass():
    assert _play("forced_coordination", "belief+belief", 150)["soups"] >= 1
    assert _play("forced_coordination", "greedy+greedy", 150)["soups"] == 0


def test_episode_is_a_function_of_its_seed():
    a, b = _play("asymmetric_advantages", "belief+greedy", 60), _play("asymmetric_advantages", "belief+greedy", 60)
    assert (a["soups"], a["timesteps"]) == (b["soups"], b["timesteps"])


def test_tom_and_mc_rows_with_trivial_answerers():
    from belief.grading.trivial import tom_table

    r = _play("cramped_room", "belief+belief", 60, fov=1, ask_every=10)
    tom = tom_table(r["tom_rows"])
    assert {"pot_belief", "partner_intent"} <= set(tom["by_type"])
    assert {"belief", "majority", "public_record", "as_self"} <= set(tom["answerers"])
    mc = tom_table(r["mc_rows"])
    assert {"random", "heuristic", "majority"} <= set(mc["answerers"])
    assert mc["by_type"]["pot_state"]["heuristic"]["accuracy"] == 1.0  # EC: reading the state answers it
    # the belief chef's inferred partner subgoal beats answering "what I do myself"
    it = tom["by_type"]["partner_intent"]
    assert it["belief"]["accuracy"] > it["as_self"]["accuracy"]


def test_bench_command_prints_the_bench_shape_with_by_layout():
    from typer.testing import CliRunner

    from belief.app.results.schema import validate_bench_json
    from belief.app.cli import app

    res = CliRunner().invoke(app, ["bench", "overcooked", "--episodes", "2", "--seed", "7000", "--layouts",
                                   "cramped_room,forced_coordination", "--pairings", "belief+belief,random+random",
                                   "--horizon", "40", "--no-questions", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(next(line for line in res.output.splitlines() if line.startswith("{")))
    # by_layout is the top-level addition (app/bench/schema.py does not know it yet)
    validate_bench_json({k: v for k, v in out.items() if k != "by_layout"})
    assert set(out["by_layout"]) == {"cramped_room", "forced_coordination"}
    for s in out["by_layout"].values():
        validate_bench_json(s)
        assert set(s["by_agent"]) == {"belief+belief", "random+random"}
    assert out["by_agent"]["random+random"]["soups"] == 0
    bad = CliRunner().invoke(app, ["bench", "overcooked", "--layouts", "kitchen"])
    assert bad.exit_code == 2 and "error:" in bad.output and "kitchen" in bad.output


def test_llm_chef_through_the_client_on_a_loopback_server():
    from belief.agents.overcooked.llm import LLMChef, parse_action
    from belief.llm.client import LLMClient
    from belief.testing.llm_server import FakeOpenAI

    assert parse_action("Action: interact") == 5 and parse_action("north") == 0 and parse_action("dance") is None
    e = overcooked.parallel_env(layout="cramped_room", horizon=3)
    obs, infos = e.reset()
    with FakeOpenAI(["Action: west", "I would rather not", "Action: interact"]) as srv:
        chef = LLMChef("alice", LLMClient(base_url=srv.base_url, model="fake", api_key="x", cache=False))
        actions = [chef.act(obs["alice"], infos["alice"]) for _ in range(3)]
        assert "You are alice" in srv.requests[0]["messages"][1]["content"]
    assert actions == [3, 4, 5] and chef.invalid == 1


def test_bench_question_tables_are_per_pairing():
    """Each chef is scored on the questions of its own episodes: pooling the pairings' rows into one table
    counted every question of the other pairing as a wrong answer (about half the true accuracy)."""
    from belief.app.bench.overcooked import QUESTION_PAIRINGS, bench

    out = bench(1, 7000, layouts=("cramped_room",), pairings=("belief+belief",), horizon=20, fov=2,
                question_horizon=30, ask_every=10)
    assert set(out["extra"]["tom"]) == set(QUESTION_PAIRINGS) == set(out["extra"]["mc"])
    for pairing, table in out["extra"]["mc"].items():
        kind = pairing.split("+")[0]
        pot = table["by_type"]["pot_state"]
        assert kind in table["answerers"] and pot[kind]["n"] == pot["majority"]["n"]
        other = [k for p in QUESTION_PAIRINGS for k in p.split("+") if k != kind]
        assert not set(other) & set(table["answerers"])
        # cramped_room is small: with a radius-2 view the chef sees the pots, so it reads them right
        assert pot[kind]["accuracy"] >= 0.9
    tom = out["extra"]["tom"]["belief+belief"]["by_type"]["partner_intent"]
    assert "public_record" not in tom  # a shortcut that does not apply is not scored 0


def test_question_horizon_defaults_to_the_game_and_the_option_sets_it():
    """The question episodes run the game's 400 steps by default (at 100 only one selected template had 300
    questions); ``--question-horizon`` sets them: pot_belief is asked of each chef every 10 steps from step 0."""
    import inspect

    import typer
    from typer.testing import CliRunner

    from belief.app.bench.overcooked import bench
    from belief.app.cli import app

    assert inspect.signature(bench).parameters["question_horizon"].default == 400
    res = CliRunner().invoke(app, ["bench", "overcooked", "--episodes", "1", "--seed", "7000", "--layouts",
                                   "cramped_room", "--pairings", "belief+belief", "--horizon", "10",
                                   "--question-horizon", "30", "--executor", "serial", "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(next(line for line in res.output.splitlines() if line.startswith("{")))
    assert out["extra"]["questions"]["horizon"] == 30
    for table in out["extra"]["tom"].values():
        assert table["by_type"]["pot_belief"]["majority"]["n"] == 3 * 2  # steps 0, 10, 20; two chefs
    bad = CliRunner().invoke(app, ["bench", "overcooked", "--question-horizon", "0"])
    assert bad.exit_code == 2 and "--question-horizon" in bad.output
    helped = CliRunner().invoke(app, ["bench", "overcooked", "--help"], env={"COLUMNS": "250"})
    assert "--question-horizon" in helped.output
    command = typer.main.get_command(app).commands["bench"].commands["overcooked"]
    assert next(o for o in command.params if o.name == "question_horizon").default == 400


def test_greedy_yield_clears_the_ring_where_the_greedy_model_blocks_itself():
    """Head-on in coordination ring the engine's greedy model stalls; with the traffic rule it serves soups."""
    assert _play("coordination_ring", "greedy+greedy", 150)["soups"] == 0
    assert _play("coordination_ring", "greedy_yield+greedy_yield", 150)["soups"] >= 1


def test_greedy_yield_steps_aside_into_free_floor_only():
    from belief.agents.overcooked.baselines import STAY, GreedyYieldChef
    from belief.envs.overcooked.world import engine

    chef = GreedyYieldChef("bob", "coordination_ring", seed=0)
    moves = engine().Action.INDEX_TO_ACTION[:4]
    for me in sorted(chef.floor):
        for partner in sorted(chef.floor - {me}):
            a = chef.step_aside(me, partner, moves)
            if a != STAY:
                q = (me[0] + moves[a][0], me[1] + moves[a][1])
                assert q in chef.floor and q != partner
