"""Applications built on the engine: the ``belief`` command line, episode runners, benchmarks, the demo.

This is the top layer: it may import the core, the environments (:mod:`belief.envs`) and the agents
(:mod:`belief.agents`); nothing below imports it (``tests/test_layers.py``).

Inside it, bottom to top (``tests/test_layers.py`` checks that no arrow points up):

- :mod:`belief.app.runs` (executor, run directories, progress) and :mod:`belief.app.results` (the one shape
  of a benchmark's results: paired comparisons, metrics, tables, schema);
- :mod:`belief.app.runners`: one module per world that plays its episodes (``belief run WORLD``);
- :mod:`belief.app.bench`: one module per world that compares agents over episodes (``belief bench WORLD``),
  and the engine's own benchmarks (parse, checker, online, elimination);
- :mod:`belief.app.cli`, :mod:`belief.app.plot`, :mod:`belief.app.demo`: the ``belief`` command, figures,
  the demo.
"""
