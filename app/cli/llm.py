"""LLM-facing commands: ``belief translate`` (one observation into facts, rules first, the LLM when asked)."""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from belief.app.cli import run_options
from belief.app.cli.app import app, bench_app


def _err(message: str) -> None:
    print("error: " + " ".join(str(message).split()), file=sys.stderr)


def build_llm(base_url: Optional[str], model: Optional[str], api_key: Optional[str], config: Optional[str],
              timeout: Optional[float], max_retries: Optional[int], required: bool):
    """An LLMClient from flags > environment > config file, or None when nothing is configured."""
    from belief.llm.client import LLMClient, LLMConfig

    cfg = LLMConfig.resolve(config_path=config, base_url=base_url, model=model, api_key=api_key, timeout=timeout,
                            max_retries=max_retries)
    if not cfg.configured and not required:
        return None
    return LLMClient(cfg)


@app.command("translate")
def translate_cmd(
    text: str = typer.Argument(..., help="the observation text; '-' reads stdin"),
    env: str = typer.Option("bomb", "--env", help="environment whose text and domain to use (e.g. bomb)"),
    agent: str = typer.Option(..., "--agent", help="whose observation it is (e.g. alpha)"),
    llm: bool = typer.Option(False, "--llm", help="force the LLM path (otherwise rules answer when they can)"),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint (or OPENAI_BASE_URL)"),
    model: Optional[str] = typer.Option(None, "--model", help="model name (or BELIEF_MODEL)"),
    api_key: Optional[str] = typer.Option(None, "--api-key", help="API key (or OPENAI_API_KEY); local servers need none"),
    config: Optional[str] = typer.Option(None, "--config", help="LLM config file (TOML/JSON; or BELIEF_LLM_CONFIG)"),
    timeout: float = typer.Option(15.0, "--timeout", min=0.05,
                                  help="seconds per LLM attempt, in total (the whole reply)"),
    max_retries: int = typer.Option(1, "--max-retries", min=0, max=10, help="client retries on errors/timeouts"),
    attempts: int = typer.Option(3, "--attempts", min=1, max=10, help="LLM answers tried before giving up"),
    order: Optional[int] = typer.Option(None, "--order", min=0, max=1, help="0: zero-order only, 1: first-order only"),
    policy: str = typer.Option("strict-truthful", "--policy", help="trust policy for messages in the text"),
    constrain: bool = typer.Option(False, "--constrain", help="send a regex of valid facts in the JSON schema "
                                   "(grammar-constrained decoding on servers such as llama.cpp)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
):
    """Print the belief facts one observation gives AGENT (and every problem found), then the messages in it.

    Without --llm the environment's rule-based translator answers; sentences it does not cover go to the
    LLM when one is configured. Messages found in the text are data: they are taken out before the rules or
    the LLM read the observation, pass through the trust policy (--policy) and only ever become the
    agent's own beliefs. Exit 1 (one line on stderr) when no valid update exists, nothing in the text is
    understood, or the endpoint fails; exit 2 on an unknown agent or policy. The time is bounded by
    --timeout, --max-retries and --attempts.
    """
    try:
        code = _translate(text, env, agent, llm, base_url, model, api_key, config, timeout, max_retries, attempts,
                          order, policy, as_json, constrain)
    except typer.Exit:
        raise
    except Exception as e:  # noqa: BLE001 - a command line ends with one line, never a traceback
        from belief.errors import BeliefError

        _err(str(e) if isinstance(e, BeliefError) else f"{type(e).__name__}: {e}")
        raise typer.Exit(1)
    raise typer.Exit(code)


def _translate(text, env_name, agent, force_llm, base_url, model, api_key, config, timeout, max_retries, attempts,
               order, policy, as_json, constrain=False) -> int:
    import belief.envs  # noqa: F401  (registers the environments' translators)
    from belief.errors import BeliefError
    from belief.llm.messages import receive_message
    from belief.logic.policies import PolicyError, get_policy
    from belief.llm.translate import TranslationError, Translator
    from belief.llm.translation_envs import get_env

    try:
        get_policy(policy)
    except PolicyError as e:
        _err(str(e))
        return 2
    if text == "-":
        text = sys.stdin.read()
    if not text.strip():
        _err("the observation text is empty: give the text to translate (or '-' to read it from stdin)")
        return 2
    env = get_env(env_name)
    client = build_llm(base_url, model, api_key, config, timeout, max_retries, required=force_llm)
    tr = Translator(env, client, max_attempts=attempts, constrain=constrain)
    if agent.lower() not in {a.lower() for a in tr.agents}:
        _err(f"unknown agent {agent!r} for env {env.name}; agents: {', '.join(tr.agents)}")
        return 2
    store = env.store(agent)
    try:
        result = tr.update(store, text, agent, order=order, use_llm=True if force_llm else None)
    except TranslationError as e:
        if as_json:
            print(json.dumps({"ok": False, "error": " ".join(str(e).split()), "errors": e.errors,
                              "attempts": e.attempts}))
        else:
            for x in e.errors:
                print(f"rejected: {x}", file=sys.stderr)
        _err(f"no valid update after {e.attempts} attempt(s); nothing recorded")
        return 1
    if not result.facts and not result.messages and result.uncovered:
        why = "no LLM configured" if client is None else "the LLM was not asked"
        if as_json:
            print(json.dumps({"ok": False, "error": "nothing understood", "uncovered": result.uncovered}))
        _err(f"nothing understood in the text ({why}): {result.uncovered[0]!r}"
             + (f" and {len(result.uncovered) - 1} more sentence(s)" if len(result.uncovered) > 1 else ""))
        return 1
    receptions = []
    parse = env.message_facts
    for sender, msg in result.messages:
        try:
            rec = receive_message(store, tr, agent, sender, msg, policy=policy, parse_facts=parse,
                                  use_llm=False if client is None else None)
        except BeliefError as e:
            rec = None
            receptions.append((sender, msg, None, str(e)))
            continue
        receptions.append((sender, msg, rec, None))
    if as_json:
        out = result.to_json()
        out["ok"] = True
        out["messages"] = [{"sender": s, "text": m, **(r.to_json() if r else {}), **({"error": e} if e else {})}
                           for s, m, r, e in receptions]
        if client is not None:
            out["usage"] = client.usage.to_json()
        print(json.dumps(out))
        return 0
    for f in result.facts:
        print(f)
    for s in result.history:
        for x in s:
            print(f"# rejected (then corrected): {x}")
    for u in result.uncovered:
        print(f"# not understood (no LLM configured): {u}")
    for sender, msg, rec, error in receptions:
        print(f"# message from {sender} (data, via trust policy {policy}): {msg!r}")
        if error:
            print(f"#   error: {error}")
            continue
        for f in rec.facts:
            print(f)
        for x in rec.refused:
            print(f"#   refused: {x}")
    if client is not None:
        u = client.usage
        print(f"# llm: {result.attempts} attempt(s), {u.requests} request(s), {u.total_tokens} tokens "
              f"({u.prompt_tokens} prompt + {u.completion_tokens} completion), {u.cache_hits} cache hit(s)",
              file=sys.stderr)
    return 0


@bench_app.command("llm-cache")
@run_options.figures_options
def bench_llm_cache_cmd(
    size: list[int] = typer.Option([100, 3000], "--size", min=0, max=1_000_000,
                                   help="Entries in the cache before timing (repeat the option for several)."),
    writes: int = typer.Option(200, "--writes", min=1, max=100_000, help="Timed writes (and reads) per size."),
    repeat: int = typer.Option(3, "--repeat", min=1, max=20, help="Runs per size; the best is reported."),
    output: dict = None,
):
    """Time the LLM response cache (a SQLite file): writes and reads per second (a table, or one JSON line with
    --json)."""
    from belief.app.bench.llm_cache import bench_llm_cache

    files = run_options.figures_files(output)
    run_options.emit_figures(bench_llm_cache(size, writes, repeat), output, files,
                             f"bench llm-cache: {writes} writes and reads per size")
