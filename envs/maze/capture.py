"""``capture_v0``: CollabCapture (LLM-Coordination, Agashe et al. 2023) as a PettingZoo AEC environment.

Alice and Bob must catch a thief in a :mod:`belief.envs.maze.world` maze within ``max_rounds`` rounds
(default 30): the thief is caught as soon as it shares a room with either of them. The thief flees:
when a player is within ``SIGHT`` moves of it (through open doors) it moves to the neighbouring room (or
stays) that keeps it farthest from the nearest player, else it wanders at random. It cannot press buttons,
so a closed door cuts its escape routes. Everything else (actions, observations, the trace, messages):
:mod:`belief.envs.maze.environment`. The reward is 1 for a capture, 0 otherwise.
"""

from __future__ import annotations

import random


from belief.envs.base.parallel import turn_based_constructors
from belief.envs.maze.environment import PLAYERS, MazeEnv, global_trace as _global_trace
from belief.envs.maze.world import generate, place

THIEF = "thief"
SIGHT = 2


def flee(maze, who: str, hunters, rng: random.Random, sight: int = SIGHT) -> str:
    """The room a fleeing ``who`` moves to: farthest from the nearest hunter within ``sight`` (ties: more
    rooms reachable, then at random); a random neighbour (or staying) when no hunter is in sight."""
    here = maze.pos[who]
    near = maze.distances(here)
    threats = [maze.pos[h] for h in hunters if near.get(maze.pos[h], sight + 1) <= sight]
    options = [here] + maze.open_neighbours(here)
    if not threats:
        return rng.choice(options + [here])

    def score(room):
        gap = min(maze.distances(room).get(t, 99) for t in threats)
        return (gap, len(maze.reachable(room)), rng.random())

    return max(options, key=score)


class raw_env(MazeEnv):
    metadata = {"name": "capture_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}
    adversary = THIEF
    max_rounds = 30

    def new_maze(self, seed):
        maze = generate(seed)
        place(maze, seed, PLAYERS, THIEF, min_gap=2)
        return maze

    def adversary_move(self, rng):
        return flee(self.maze, THIEF, PLAYERS, rng)

    def outcome(self):
        return "captured" if self.captured() else None

    def captured(self) -> bool:
        return any(self.maze.pos[p] == self.maze.pos[THIEF] for p in PLAYERS)

    def reward(self) -> float:
        return 1.0 if self.end_reason == "captured" else 0.0

    def metrics(self) -> dict:
        return {"captured": int(self.end_reason == "captured"), "turns": self.round,
                "end_reason": self.end_reason, "messages": self.messages}


#: ``env()`` (AEC, wrapped) and ``parallel_env()`` (one turn per step)
env, parallel_env = turn_based_constructors(raw_env)


def global_trace(seed, actions, **kwargs):
    return _global_trace(raw_env, seed, actions, **kwargs)


__all__ = ["env", "parallel_env", "raw_env", "global_trace", "flee", "THIEF", "SIGHT"]
