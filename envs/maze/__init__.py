"""Maze worlds of LLM-Coordination: CollabCapture (:mod:`belief.envs.maze.capture`, ``capture_v0``) and
CollabEscape (:mod:`belief.envs.maze.escape`, ``escape_v0``) on one maze model (:mod:`belief.envs.maze.world`),
one event vocabulary (:mod:`belief.envs.maze.events`) and one environment base
(:mod:`belief.envs.maze.environment`). Each game module exposes ``env()``, ``parallel_env()`` and ``raw_env``.
"""
