from belief.app.runners.maze import MazeConfig, play_episode
from belief.agents.maze.belief import route
from belief.envs.maze.world import PRESS


def test_belief_agents_capture_more_and_answer_tom_from_private_traces():
    belief = [play_episode(MazeConfig(game="capture", agents="belief", rules="project"), s) for s in range(8)]
    base = [play_episode(MazeConfig(game="capture", agents="baseline", rules="project"), s) for s in range(8)]
    assert sum(r["captured"] for r in belief) >= sum(r["captured"] for r in base)
    assert sum(r["turns"] for r in belief) < sum(r["turns"] for r in base)
    second = lambda rs: sum(r["tom_correct"]["second_order"] for r in rs) / sum(r["tom_total"]["second_order"] for r in rs)
    assert second(belief) > second(base)  # the baseline has no partner model: egocentric answers
    assert all(r["messages"] == 0 for r in base) and any(r["messages"] > 0 for r in belief)


def test_escape_episode_is_a_pure_function_of_config_and_seed():
    a = play_episode(MazeConfig(game="escape", agents="belief", rules="project"), 3)
    b = play_episode(MazeConfig(game="escape", agents="belief", rules="project"), 3)
    assert a == b and a["game"] == "escape" and a["questions"] > 0


def test_route_presses_the_button_that_opens_the_way(shut_door_maze):
    m, a, b = shut_door_maze
    assert route(m, a, b) == PRESS


def test_lookahead_ablation_plays_both_rules_and_neither_tells_nor_reads_its_partner():
    from belief.agents.maze.belief import EscapeLookaheadAgent
    from belief.envs.maze.escape import raw_env

    for rules in ("source", "project"):
        r = play_episode(MazeConfig(game="escape", agents="lookahead", ask_every=0, rules=rules), 3)
        assert r["messages"] == 0 and r["turns"] > 0
    e = raw_env(seed=3, rules="project")
    a, b = e.possible_agents
    ag = EscapeLookaheadAgent(a, b, e.adversary, e.layout_meta())
    assert ag.partner_model is False and ag.compose_message(e.infos[a]["obs"]) is None


def test_the_planner_without_a_partner_model_ignores_the_partner():
    """The source planner's ablation decides the same wherever its partner stands; the full planner does not
    (it splits the generators with the partner and predicts the killer from both rooms)."""
    from belief.agents.maze.escape_source import SourceEscapePlanner
    from belief.envs.maze.escape import raw_env

    def decisions(partner_model):
        out = set()
        e = raw_env(seed=0, rules="source")
        me, other = e.possible_agents
        view = e.infos[me]["obs"]
        gens = dict.fromkeys(sorted(e.unfixed_generators()), 0)
        planner = SourceEscapePlanner(e.maze, me, (me, other), 2, partner_model=partner_model)
        rooms = sorted(e.maze.rooms)
        for mine in rooms:                  # every room of mine: the decisions over every room of the partner's
            out.add(tuple(planner.plan({me: mine, other: r}, view["seen"][e.adversary], gens, e.exit_room, False,
                                       [1] * len(e.infos[me]["action_mask"])) for r in rooms))
        return out

    assert all(len(set(d)) == 1 for d in decisions(False))
    assert any(len(set(d)) > 1 for d in decisions(True))
