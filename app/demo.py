"""The demo: a scenario's beliefs per perspective chain as rich tables, and its ToM queries answered."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table

from belief.errors import BeliefError


def _chain_label(chain) -> str:
    return "reality" if not chain else " → ".join(map(str, chain))


def run_demo(scenario: str, console: Console) -> None:
    from belief import examples
    from belief.logic.scenario import load_scenario
    from belief.grammar import to_pdkb

    if scenario in examples.scenario_names() and not Path(scenario).exists():
        sc = examples.scenario(scenario)
    else:
        text = Path(scenario).read_text(encoding="utf-8")
        if not text.strip():
            raise BeliefError(f"{scenario}: the scenario file is empty; expected a scenario (s-expression problem "
                              "or readable facts)")
        sc = load_scenario(text, source=scenario)
    store = sc.store()
    console.print(f"[bold]Scenario[/] {sc.name} (domain {sc.domain_name}); agents: {', '.join(sc.agents)}; "
                  f"{len(store)} facts in {len(store.chains())} perspective chains")
    table = Table(title="Beliefs per perspective chain", show_lines=False)
    table.add_column("chain (a1 believes a2 believes …)")
    table.add_column("holds")
    table.add_column("p", justify="right")
    table.add_column("PDKB")
    for chain in store.chains():
        for fact in store.facts(chain):
            lit = str(fact.formula)
            for agent in chain:  # show the literal without its chain prefix
                prefix = f"{agent} BELIEVE "
                lit = lit[len(prefix):] if lit.startswith(prefix) else lit
            table.add_row(_chain_label(chain), lit, "" if fact.probability is None else f"{fact.probability:g}",
                          to_pdkb(fact))
    console.print(table)
    qt = Table(title="ToM queries")
    qt.add_column("query")
    qt.add_column("answer")
    qt.add_column("bindings")
    for q in sc.queries:
        for a in store.query(q):
            stance = a.stance.value if a.known else "unknown"
            qt.add_row(f"? {q}", stance, ", ".join(f"?{k}={v}" for k, v in a.bindings.items()))
    console.print(qt)
    lacks = store.diff(("Anne",), ("Anne", "Sally")) if {"Anne", "Sally"} <= set(sc.agents) else []
    if lacks:
        console.print("What Anne knows that (she thinks) Sally lacks: " + "; ".join(map(str, lacks)))
