"""Applications built on the engine: the ``belief`` command line, episode runners, benchmarks, the demo.

This is the top layer: it may import the core, the environments (:mod:`belief.envs`) and the agents
(:mod:`belief.agents`); nothing below imports it (``tests/test_layers.py``).

- :mod:`belief.app.cli`: the ``belief`` command (``python -m belief``);
- :mod:`belief.app.runners.bomb`: bomb_v0 episodes with a team of agents, ToM questions and answers;
- :mod:`belief.app.runners.transport`: transport_v0 episodes and the CoBel-World comparison figures;
- :mod:`belief.app.bench.parse`, :mod:`belief.app.bench.checker`: ``belief bench parse`` / ``checker``;
- :mod:`belief.app.demo`: ``belief demo`` (the Sally-Anne scenario as tables).
"""
