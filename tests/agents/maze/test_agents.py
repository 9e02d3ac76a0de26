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
