"""``capture_v0``: CollabCapture (LLM-Coordination, Agashe et al. 2023) as a PettingZoo AEC environment.

Alice and Bob must catch a thief within ``max_rounds`` rounds (default 30). Two rule sets:

``rules="source"`` (default), the game of the source code (``collab_capture_action_manager.py``): its fixed
map of nine rooms (:func:`~belief.envs.maze.world.source_capture_maze`) with two doors worked by buttons
(room_1|room_2 by the button in room_9, room_3|room_4 by the button in room_8; both start open); Alice in
room_1, Bob in room_2, the thief in room_9; everything in full view. After the players' moves the thief always
moves (when it can) to the neighbouring room farthest from the nearer player, and is caught when it shares a
room with a player at the end of the round. Two departures from the source code, both documented where the
source's rule is degenerate: the source measures "farthest" by the difference of room numbers, which is not a
distance in its map (here it is the number of moves), and its thief cannot stay, so from room_9 (one door)
it must walk into a hunter who enters room_6, a capture in one round (here it may stay when that is farthest).
Ties: staying, then the lower room number.

``rules="project"``, this project's variant: a seeded 3x3 maze with partial view; when a player is within
``SIGHT`` moves the thief moves to the neighbouring room (or stays) that keeps it farthest from the nearest
player, else it wanders at random; it is caught the moment it shares a room with a player.

The thief cannot press buttons, so a closed door cuts its escape routes. Everything else (actions,
observations, the trace, messages): :mod:`belief.envs.maze.environment`. The reward is 1 for a capture.
"""

from __future__ import annotations

import random


from belief.envs.base.parallel import turn_based_constructors
from belief.envs.maze.environment import PLAYERS, MazeEnv, global_trace as _global_trace
from belief.envs.maze.world import generate, place, room_index, source_capture_maze

THIEF = "thief"
SIGHT = 2
SOURCE_START = {"alice": "room_1", "bob": "room_2", THIEF: "room_9"}


def source_flee(maze, who: str, hunters) -> str:
    """The source thief's move: the room (its own, or a neighbour through an open door) farthest, in moves,
    from the nearer hunter; ties: staying, then the lower room number."""
    here = maze.pos[who]
    options = [here] + sorted(maze.open_neighbours(here), key=room_index)
    rooms = [maze.pos[h] for h in hunters]

    def gap(room):
        near = maze.distances(room)
        return min(near.get(r, 99) for r in rooms)

    return max(options, key=gap)


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
        self.caught_at_round_end = False
        if self.rules == "source":
            maze = source_capture_maze()
            maze.pos.update(SOURCE_START)
            return maze
        maze = generate(seed)
        place(maze, seed, PLAYERS, THIEF, min_gap=2)
        return maze

    def adversary_move(self, rng):
        if self.rules == "source":
            return source_flee(self.maze, THIEF, PLAYERS)
        return flee(self.maze, THIEF, PLAYERS, rng)

    def end_round(self) -> None:
        if self.rules == "source":
            self.caught_at_round_end = self.captured()

    def outcome(self):
        if self.rules == "source":
            return "captured" if self.caught_at_round_end else None
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


__all__ = ["env", "parallel_env", "raw_env", "global_trace", "flee", "source_flee", "THIEF", "SIGHT", "SOURCE_START"]
