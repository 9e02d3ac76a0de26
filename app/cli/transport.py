"""Transport commands: ``belief bench transport`` and ``belief run transport``.

``bench transport`` plays the 24 fixed ``transport_v0`` episodes (or a subset), or ``--worlds N``
generated worlds from ``--seed``, with each agent type, shows a progress bar with ETA on stderr, prints a
table (means with 95% intervals, paired differences against cobel), then one JSON object as the last
stdout line; ``--plot FILE`` saves transport rate against message tokens per agent type. ``--llm`` (both commands) turns on LLM mode for ``cobel`` agents
(:mod:`belief.agents.transport.llm`): ``--llm-parts update,predict,message``, endpoint options as for the
other LLM commands; LLM usage and fallbacks are reported (table, and an ``llm`` key in the JSON line).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from belief.app.cli import llm_options, run_options
from belief.app.cli.app import bench_app, run_app
from belief.app.runs.progress import progress_bar
from belief.errors import BeliefError
from belief.app.runs.executor import EXECUTORS
from belief.llm.client import LLMError
from belief.files.outputs import write_table

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2):
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _agents(text: str) -> list:
    from belief.agents.transport.baselines import AGENT_TYPES, is_known

    kinds = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in kinds if not is_known(k)]
    if not kinds or bad:
        _fail(f"--agents: unknown agent type(s) {', '.join(bad) or '(none)'}; choose from {', '.join(AGENT_TYPES)}"
              " (or a mixed team such as cobel+coela)")
    return kinds


def _table(summary: dict) -> Table:
    t = Table(title=f"transport_v0, {summary['episodes']} {summary.get('worlds', 'fixed')} world(s); "
                    "means, 95% intervals")
    for col in ("agent", "transport rate", "95% CI", "cobel - agent (95% CI)", "message tokens", "comm frames",
                "prediction acc.", "belief acc. (world)", "belief acc. (partner)", "miscoordination"):
        t.add_column(col, justify="right" if col != "agent" else "left")

    def pct(x):
        return "n/a" if x is None else f"{100 * x:.1f}%"

    diffs = summary.get("diff_vs", {})
    for k, v in summary["by_agent"].items():
        d = diffs.get(k, {}).get("transport_rate")
        diff = "" if d is None else f"{100 * d['mean']:+.1f} ({100 * d['ci95'][0]:+.1f}, {100 * d['ci95'][1]:+.1f}) {d['ordering']}"
        t.add_row(k, pct(v["transport_rate"]), f"{pct(v['ci95'][0])}-{pct(v['ci95'][1])}", diff,
                  f"{v['message_tokens']:.0f}", f"{v['comm_frames']:.1f}", pct(v["prediction_accuracy"]),
                  pct(v["belief_accuracy_world"]), pct(v["belief_accuracy_partner"]), f"{v['miscoordination']:.1f}")
    return t


def _check_plot_path(path: Path) -> None:
    """Exit 2 before any episode runs when --plot names a format `belief plot` cannot write."""
    from belief.app.plot import figures as plot_figures

    if path.suffix.lower() not in plot_figures.FORMATS:
        _fail(f"--plot: unsupported file type {path.suffix or '(none)'!r}; use one of {', '.join(plot_figures.FORMATS)}")


def _save_plot(summary: dict, path: Path) -> None:
    """The same figure as `belief plot` draws from the saved JSON line, written atomically."""
    from belief.app.plot import figures as plot_figures
    from belief.app.plot.data import BenchSummary

    bench_summary = BenchSummary(path=path, kind="transport", episodes=summary["episodes"],
                                 by_agent=summary["by_agent"])
    plot_figures.save_figure(plot_figures.transport_figure([bench_summary]), path, force=True)


LLM_PARTS_HELP = "LLM mode parts, comma-separated: update, predict, message (default: all three)"


def _llm_mode(llm: bool, kinds, base_url, model, api_key, timeout, max_retries, parts):
    """The TransportLLM for --llm (None without); exits 2 on misuse, 1 with one error line on LLM failure."""
    if not llm:
        given = [f for f, v in (("--base-url", base_url), ("--model", model), ("--api-key", api_key),
                                ("--timeout", timeout), ("--max-retries", max_retries),
                                ("--llm-parts", parts)) if v is not None]
        if given:
            _fail(f"{', '.join(given)} {'only applies' if len(given) == 1 else 'only apply'} with --llm")
        return None
    if "cobel" not in kinds:
        _fail("--llm applies to cobel agents: include cobel in --agents")
    from belief.agents.transport.llm import make_llm, parse_parts
    from belief.errors import BeliefError

    try:
        return make_llm(base_url=base_url, model=model, api_key=api_key, timeout=timeout,
                        max_retries=max_retries, parts=parse_parts(parts or "update,predict,message"))
    except BeliefError as e:
        _fail(" ".join(str(e).split()), 1)


def _llm_table(rep: dict) -> Table:
    t = Table(title=f"LLM mode (cobel): {rep['requests']} requests, {rep['total_tokens']} tokens "
                    f"({rep['prompt_tokens']} prompt + {rep['completion_tokens']} completion), "
                    f"{rep['failed_requests']} failed, {rep['cache_hits']} cache hits")
    for col in ("part", "calls", "LLM answers used", "fallbacks", "rejected attempts"):
        t.add_column(col, justify="right" if col != "part" else "left")
    for p in rep["parts"]:
        v = rep[p]
        t.add_row(p, str(v["calls"]), str(v["llm"]), str(v["fallbacks"]), str(v["rejected_attempts"]))
    return t


@bench_app.command("transport")
def bench_transport(
    episodes_subset: Optional[str] = typer.Option(None, "--episodes-subset", help="episode indices or names: "
                                                  "'0-5,12', 'food', 'stuff-high', 'food-low-3' (default: all 24)"),
    agents: str = typer.Option("cobel,coela,silent,rhp,rhp_alone", "--agents",
                               help="comma-separated agent types (see belief.agents.transport.baselines)"),
    worlds: Optional[int] = typer.Option(None, "--worlds", min=2, help="play N generated worlds instead of the fixed 24"),
    seed: int = typer.Option(0, "--seed", min=0, help="seed of the generated worlds (with --worlds)"),
    as_json: bool = typer.Option(False, "--json", help="only the JSON line on stdout (no table)"),
    progress: bool = run_options.PROGRESS,
    plot: Optional[Path] = typer.Option(None, "--plot", help="save transport rate vs message tokens (PNG/SVG/PDF)"),
    planner: Optional[str] = typer.Option(None, "--planner", help="pyperplan (default) | fast-downward | greedy"),
    executor: str = run_options.EXECUTOR,
    workers: int = typer.Option(2, "--workers", min=1, help="episode processes (local) or CPUs (ray)"),
    address: Optional[str] = run_options.ADDRESS,
    results: Optional[Path] = typer.Option(None, "--results", help="write one row per episode: .json (an array), "
                                           ".jsonl or .csv (flat: nested figures as dotted columns)"),
    force: bool = run_options.FORCE,
    llm: bool = typer.Option(False, "--llm", help="LLM mode for cobel agents (one process; see --llm-parts)"),
    base_url: Optional[str] = llm_options.BASE_URL,
    model: Optional[str] = llm_options.MODEL,
    api_key: Optional[str] = llm_options.API_KEY,
    timeout: Optional[float] = llm_options.TIMEOUT,
    max_retries: Optional[int] = llm_options.MAX_RETRIES,
    llm_parts: Optional[str] = typer.Option(None, "--llm-parts", help=LLM_PARTS_HELP),
):
    """CoBel vs baselines on transport_v0; the last stdout line is one JSON object of mean figures."""
    from belief.agents.transport.planner import ENGINES
    from belief.envs.transport.world import parse_subset
    from belief.app.runners.transport import bench, to_json_line

    if worlds is not None and episodes_subset is not None:
        _fail("--worlds and --episodes-subset exclude each other (generated worlds or fixed episodes)")
    try:
        eps = parse_subset(episodes_subset)
    except ValueError as e:
        _fail(str(e))
    kinds = _agents(agents)
    if planner is not None and planner not in ENGINES:
        _fail(f"--planner must be one of {', '.join(ENGINES)}")
    if plot is not None:
        _check_plot_path(plot)
    if executor not in EXECUTORS:
        _fail(f"--executor must be one of {', '.join(EXECUTORS)} (got {executor!r})")
    run_options.refuse_bad_outputs({"--plot": plot, "--results": results}, (), force)
    mode = _llm_mode(llm, kinds, base_url, model, api_key, timeout, max_retries, llm_parts)
    total = (worlds if worlds is not None else len(eps)) * len(kinds)
    with progress_bar("transport episodes", total=total, enabled=progress) as bar:
        try:
            summary = bench(None if worlds is not None else eps, kinds, planner=planner, workers=workers,
                            progress=lambda r: bar.advance(description=f"{r['agent']} {r['name']}"), llm=mode,
                            worlds=worlds, seed=seed, executor=executor, address=address)
        except LLMError as e:  # only LLM mode raises these (an endpoint that never answered)
            _fail(" ".join(str(e).split()), 1)
        except BeliefError as e:  # the executor: Ray missing or unreachable
            _fail(" ".join(str(e).split()), 1)
    if not as_json:
        out.print(_table(summary))
    if mode is not None and not as_json:
        out.print(_llm_table(summary["llm"]))
    for path, write in ((plot, lambda p: _save_plot(summary, p)),
                        (results, lambda p: write_table(p, summary["results"]))):
        if path is None:
            continue
        try:
            write(path)
        except (OSError, ValueError) as e:
            _fail(f"cannot write {path}: {e}", 1)
    if plot is not None and not as_json:
        out.print(f"plot: {plot}")
    print(to_json_line(summary))


@run_app.command("transport")
def run_transport(
    episode: int = typer.Option(0, "--episode", min=0, max=23, help="fixed episode index 0-23"),
    world_seed: Optional[int] = typer.Option(None, "--world-seed", min=0,
                                             help="play the generated world of this seed instead of --episode"),
    agents: str = typer.Option("cobel", "--agents", help="an agent type (cobel, coela, silent, rhp, rhp_alone, "
                                                         "ablations, cobel+coela)"),
    planner: Optional[str] = typer.Option(None, "--planner", help="pyperplan | fast-downward | greedy"),
    trace: Optional[Path] = typer.Option(None, "--trace", help="write the global trace (JSONL)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object as the last line"),
    force: bool = run_options.FORCE,
    max_steps: Optional[int] = typer.Option(None, "--max-steps", min=1, help="stop after this many env steps"),
    llm: bool = typer.Option(False, "--llm", help="LLM mode for cobel agents (see --llm-parts)"),
    base_url: Optional[str] = llm_options.BASE_URL,
    model: Optional[str] = llm_options.MODEL,
    api_key: Optional[str] = llm_options.API_KEY,
    timeout: Optional[float] = llm_options.TIMEOUT,
    max_retries: Optional[int] = llm_options.MAX_RETRIES,
    llm_parts: Optional[str] = typer.Option(None, "--llm-parts", help=LLM_PARTS_HELP),
):
    """Play one transport_v0 episode and print its figures."""
    from belief.app.runners.transport import run_episode

    kinds = _agents(agents)
    if len(kinds) != 1:
        _fail("--agents takes one agent type here")
    from belief.agents.transport.planner import ENGINES
    if planner is not None and planner not in ENGINES:
        _fail(f"--planner must be one of {', '.join(ENGINES)}")
    run_options.refuse_bad_outputs({"--trace": trace}, (), force)
    mode = _llm_mode(llm, kinds, base_url, model, api_key, timeout, max_retries, llm_parts)
    try:
        world = episode if world_seed is None else ("gen", world_seed)
        r = run_episode(world, kinds[0], planner, trace_path=str(trace) if trace else None, llm=mode,
                        max_steps=max_steps)
    except LLMError as e:
        _fail(" ".join(str(e).split()), 1)
    except OSError as e:  # --trace: the file cannot be written
        _fail(f"cannot write the trace {trace}: {e}", 1)
    def pct(x):
        return "n/a" if x is None else f"{x:.0%}"

    out.print(f"{r['name']} with {kinds[0]} ({r['n_agents']} agents, {r['targets']} targets, {r['rooms']} rooms): "
              f"transport rate {r['transport_rate']:.0%} in {r['frames']} frames, {r['messages']} messages "
              f"({r['message_tokens']} tokens, {r['comm_frames']} frames), prediction accuracy "
              f"{pct(r['prediction_accuracy'])}, belief accuracy {pct(r['belief_accuracy_world'])} (world) / "
              f"{pct(r['belief_accuracy_partner'])} (partner), miscoordination {r['miscoordination']}")
    if trace:
        out.print(f"trace: {trace}")
    if mode is not None:
        out.print(_llm_table(mode.report()))
    if as_json:
        print(json.dumps(r))
