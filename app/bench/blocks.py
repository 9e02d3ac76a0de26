"""``belief bench blocks``: the COBLOCK agents on paired seeds, in the one benchmark shape.

Every agent kind plays the same seeds (:func:`belief.app.runners.blocks.play_episode`); the headline
(``belief`` when played) is compared with each other kind by paired differences
(:func:`belief.app.results.comparison.compare`). ``extra`` holds the rules and slip played, success per task
family, and per kind the ToM table (:func:`belief.grading.trivial.tom_table`) of the level questions and the
selected set (:class:`belief.envs.blocks.tom.SelectedSet`): each question's gold from the checker on the
global trace, the agents' answers (the checker on their private traces, read by the one reader), every
shortcut of the kernel's panel beside them, the best one, ``tom`` (best shortcut at most 0.65) and the
agents' paired margin over it.
"""

from __future__ import annotations

from belief.app.results.comparison import Metric, compare, headline_of, share
from belief.grading.trivial import TRIVIAL_ANSWERERS, tom_table

METRICS = (share("success"), Metric("timesteps", False, "actions (source rules) or rounds (project rules)"),
           Metric("balance", True, "gamma", (0.0, 0.5)), share("balance_norm"),
           Metric("messages", None, "messages"))


def blocks_episode(config, seed: int) -> dict:
    """A picklable per-episode function for the process pool."""
    from belief.app.runners.blocks import play_episode

    return play_episode(config, seed)


def summarize(runs: dict, seed: int, *, rules: str, slip, preferred: str = "belief") -> dict:
    """The benchmark JSON object of ``runs`` ``{kind: [play_episode result]}``."""
    headline = headline_of(list(runs), preferred)
    rows = {k: [{"seed": r["seed"], **{m.name: r.get(m.name) for m in METRICS}} for r in rs] for k, rs in runs.items()}
    by_family = {k: {} for k in runs}
    for k, rs in runs.items():
        for r in rs:
            by_family[k].setdefault(r["family"], []).append(bool(r["success"]))
    tom = {}
    for k, rs in runs.items():
        qs = [row for r in rs for row in r.get("tom_rows", ())]
        if qs:
            qs = [{**row, "answers": {"checker": row["gold"], **row["answers"]}} for row in qs]
            tom[k] = tom_table(qs, (*TRIVIAL_ANSWERERS, "own_or_told"), headline=k)
    extra = {"rules": rules, "slip": slip,
             "success_by_family": {k: {f: {"rate": sum(v) / len(v), "episodes": len(v)} for f, v in sorted(fs.items())}
                                   for k, fs in by_family.items()},
             "blocks": sum(r["blocks"] for rs in runs.values() for r in rs) / max(1, sum(len(rs) for rs in runs.values())),
             "tom": tom}
    return compare("blocks_v0", rows, METRICS, headline, seed=seed, extra=extra)


__all__ = ["METRICS", "blocks_episode", "summarize"]
