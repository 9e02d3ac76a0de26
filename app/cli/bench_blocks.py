"""``belief bench blocks``: COBLOCK agent kinds on the same seeds, in the one benchmark JSON shape
(:mod:`belief.app.bench.blocks`)."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from belief.app.cli import run_options
from belief.app.cli.app import bench_app
from belief.app.cli.episode_report import play_all
from belief.app.cli.run_options import fail
from belief.errors import BeliefError

out = Console(highlight=False, soft_wrap=True)
_KINDS = "belief.app.runners.blocks:AGENT_KINDS"


@bench_app.command("blocks")
@run_options.pool_options
def bench_blocks(
    episodes: int = run_options.episodes(100),
    seed: int = run_options.SEED,
    agents: str = run_options.agents("belief,naive,silent", _KINDS, "comma-separated, each once: belief, naive, "
                                     "silent, oracle (the headline: belief when played, else the first)", counts=None, distinct=True),
    rules: str = typer.Option("source", "--rules", help="source (the paper's rules) | project (the earlier variant)"),
    slip: Optional[float] = typer.Option(None, "--slip", min=0.0, max=1.0,
                                         help="probability that a placement slips (default: the rules', 0 for source)"),
    family: Optional[str] = typer.Option(None, "--family", help="independent | skill | goal (default: by seed)"),
    out_dir: Optional[Path] = run_options.out(),
    force: bool = run_options.FORCE,
    as_json: bool = run_options.JSON,
    pool: dict = None,
):
    """COBLOCK: belief vs the talking naive and the silent baselines on paired seeds; ToM with trivial answerers."""
    from belief.app.bench.blocks import blocks_episode, summarize
    from belief.app.results.tables import agents_table, diff_table
    from belief.app.runners.blocks import BlocksConfig
    from belief.envs.blocks.world import RULES
    from belief.envs.blocks.tasks import FAMILIES
    from belief.grading.trivial import tom_tables_markdown

    if rules not in RULES:
        fail(f"--rules must be one of {', '.join(RULES)} (got {rules!r})")
    if family is not None and family not in FAMILIES:
        fail(f"--family must be one of {', '.join(FAMILIES)} (got {family!r})")
    kinds = run_options.split_kinds(agents)
    files = run_options.out_paths(out_dir, run_options.AGGREGATE_FILES, force)
    seeds = list(range(seed, seed + episodes))
    runs = {}
    try:
        for kind in kinds:
            config = BlocksConfig(agents=kind, family=family, slip=slip, rules=rules, tom_rows=True)
            runs[kind] = play_all(partial(blocks_episode, config), seeds, f"blocks {kind}", **pool)
    except BeliefError as e:
        fail(str(e), 1)
    summary = summarize(runs, seed, rules=rules, slip=slip)
    out.print(agents_table(summary, title=f"blocks_v0 ({rules} rules): {episodes} episode(s) from seed {seed}; "
                                          "means, 95% intervals, (n) episodes"))
    if summary["diff_vs"]:
        out.print(diff_table(summary))
    if summary["extra"]["tom"]:
        out.print(tom_tables_markdown(summary["extra"]["tom"], "ToM questions, {kind} episodes (gold: the checker "
                                      "on the global trace):"), markup=False)
    stored = [{"agents": k, **{key: v for key, v in r.items() if key != "tom_rows"}} for k, rs in runs.items() for r in rs]
    run_options.write_aggregate(files, stored, summary)
    if as_json:
        print(json.dumps(summary))
