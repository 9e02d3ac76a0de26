"""``belief bench overcooked``: soups served per layout and chef pairing on overcooked_v0, the one bench JSON
shape (:mod:`belief.app.results.comparison`) over all layouts plus ``by_layout`` (the same shape per layout),
paired by seed against the headline pairing (``belief+belief``).

Metrics per episode: ``soups``, ``score`` (20 per soup), ``points_per_100_steps`` (the score per 100 steps of the
episode's horizon, for the LLM-Coordination table, whose horizon is not stated; ``extra.llm_coordination``
holds its self-play scores), ``cpu_s`` (play CPU of the episode: both chefs'
decisions and the engine's steps) and ``cpu_ms_per_step``. The engine's planner set-up is built once per
layout before any episode's clock starts and reported apart (``extra.setup_cpu_s``). ``extra.tom`` and
``extra.mc`` are the ToM and multiple-choice tables per question pairing (:func:`belief.grading.trivial.tom_table`,
trivial answerers beside the chef, on the same questions; ``margin``: the chef over the best shortcut, paired) of
question episodes: the belief and no-inference self-play pairings, a partial view (``fov``), ``question_horizon``
steps (by default the game's own horizon, 400: at 100, ten question moments an episode, the selector's balance
left one selected template with 300 questions), questions every ``ask_every`` steps. ``extra.tom_ablation``: per
selected template, the belief chef's paired margin over the same chef answering from its private record alone
(the no-inference way) on the same questions.
"""

from __future__ import annotations

from belief.app.results.comparison import Metric, compare
from belief.app.runners.overcooked import PAIRINGS, OvercookedConfig, parse_pairing, play_episode, prepare, setup_cpu
from belief.envs.overcooked.world import HORIZON, LAYOUTS
from belief.grading.trivial import tom_table

WORLD = "overcooked_v0"
HEADLINE = "belief+belief"
METRICS = (Metric("soups", True, "soups"), Metric("score", True, "points"),
           Metric("points_per_100_steps", True, "points"), Metric("cpu_s", False, "s"),
           Metric("cpu_ms_per_step", False, "ms"))
#: LLM-Coordination (Agashe et al.), Table 1: self-play total score (20 points a soup; mean, standard error as
#: printed). The paper does not state the episode horizon beside the table: compare per 100 steps with care.
LLM_COORDINATION_SELF_PLAY = {
    "PPO self-play": {"cramped_room": 198.8, "asymmetric_advantages": 167.2, "coordination_ring": 190.8,
                      "forced_coordination": 151.9, "counter_circuit": 122.3},
    "PBT": {"cramped_room": 216.9, "asymmetric_advantages": 190.1, "coordination_ring": 173.8,
            "forced_coordination": 169.5, "counter_circuit": 140.1},
    "CAC (GPT-4-turbo)": {"cramped_room": 173.3, "asymmetric_advantages": 260.0, "coordination_ring": 140.0,
                          "forced_coordination": 180.0, "counter_circuit": 160.0},
}
QUESTION_PAIRINGS = ("belief+belief", "no_inference+no_inference")


def bench(episodes: int, seed: int, *, layouts=tuple(LAYOUTS), pairings=PAIRINGS, horizon: int = HORIZON,
          questions: bool = True, fov: int = 2, question_horizon: int = HORIZON, ask_every: int = 10,
          progress=None, executor: str = "serial", workers: int | None = 1, address: str | None = None,
          rows_out: list | None = None) -> dict:
    """Every pairing on every layout, seeds ``seed .. seed+episodes-1``, episodes on `executor`
    (:func:`belief.app.runs.executor.run_tasks`); ``progress(layout, pairing)`` after each pairing's episodes;
    `rows_out`, when given, receives the per-episode rows (``layout`` and ``pairing`` added)."""
    from belief.app.runs.executor import Star, run_tasks

    def play(configs):
        return run_tasks(Star(play_episode), [(c, s) for c in configs for s in seeds], executor, workers, address)

    for p in pairings:
        parse_pairing(p)
    seeds = list(range(seed, seed + episodes))
    by_layout, overall = {}, {p: [] for p in pairings}
    tom_rows = {p: [] for p in QUESTION_PAIRINGS}
    mc_rows = {p: [] for p in QUESTION_PAIRINGS}
    for layout in layouts:
        prepare(layout, {k for p in pairings for k in parse_pairing(p)})
        results = {}
        for p in pairings:
            rows = [{**r, "points_per_100_steps": 100.0 * r["score"] / max(r["steps"], 1)}
                    for r in play([OvercookedConfig(layout=layout, pairing=p, horizon=horizon)])]
            results[p] = rows
            if rows_out is not None:
                rows_out += [{"layout": layout, "pairing": p, **r} for r in rows]
            overall[p] += [{**r, "episode": f"{layout}:{r['seed']}"} for r in rows]
            if progress:
                progress(layout, p)
        headline = HEADLINE if HEADLINE in results else pairings[0]
        by_layout[layout] = compare(WORLD, results, METRICS, headline, seed=seed)
        if questions:
            for p in QUESTION_PAIRINGS:
                for r in play([OvercookedConfig(layout=layout, pairing=p, horizon=question_horizon, fov=fov,
                                                ask_every=ask_every)]):
                    tom_rows[p] += r["tom_rows"]
                    mc_rows[p] += r["mc_rows"]
    headline = HEADLINE if HEADLINE in overall else pairings[0]
    extra = {"horizon": horizon, "llm_coordination": {"source": "Agashe et al., Table 1, self-play total score "
                                                                "(horizon not stated)",
                                                      "scores": LLM_COORDINATION_SELF_PLAY},
             "layouts": list(layouts), "pairings": list(pairings), "setup_cpu_s": setup_cpu(),
             "setup_note": "planner set-up (motion planner; MediumLevelActionManager for greedy) built once per "
                           "layout and process, outside the episodes' CPU"}
    if questions and any(tom_rows.values()):
        extra["questions"] = {"fov": fov, "horizon": question_horizon, "ask_every": ask_every,
                              "pairings": list(QUESTION_PAIRINGS)}
        # one table per pairing, as in the other worlds: each chef is scored on the questions of its own
        # episodes, beside the trivial answerers on those same questions
        extra["tom"] = {p: tom_table(rows, headline=p.split("+")[0]) for p, rows in tom_rows.items() if rows}
        if tom_rows.get(HEADLINE):
            extra["tom_ablation"] = ablation(tom_rows[HEADLINE])
        extra["mc"] = {p: tom_table(rows) for p, rows in mc_rows.items() if rows}
    out = compare(WORLD, overall, METRICS, headline, seed=seed, pair_key="episode", extra=extra)
    out["episodes"] = episodes
    out["by_layout"] = by_layout
    return out


def ablation(rows, model: str = "belief", without: str = "no_inference") -> dict:
    """Per template, ``model``'s paired margin over ``without`` on the same questions (the rows that carry both
    answers: the selected set of the belief chefs' episodes): mean of right-minus-right, 95% interval clustered by
    episode, and each one's accuracy."""
    from belief.grading.stats import clustered_mean_ci95

    by: dict = {}
    for r in rows:
        a = r["answers"]
        if model in a and without in a:
            by.setdefault(r["type"], []).append(r)
    out = {}
    for t, rs in sorted(by.items()):
        right = [(str(r["answers"][model]).strip().lower() == str(r["gold"]).strip().lower(),
                  str(r["answers"][without]).strip().lower() == str(r["gold"]).strip().lower()) for r in rs]
        diffs = [float(a) - float(b) for a, b in right]
        entry: dict = {"n": len(rs), model: sum(a for a, _ in right) / len(rs),
                       without: sum(b for _, b in right) / len(rs)}
        if len(rs) >= 2:
            mean, (lo, hi) = clustered_mean_ci95(diffs, [r.get("episode", i) for i, r in enumerate(rs)])
            entry["margin"] = {"mean": mean, "ci95": [lo, hi], "above_zero": lo > 0}
        out[t] = entry
    return out


__all__ = ["ablation", "bench", "LLM_COORDINATION_SELF_PLAY", "METRICS", "HEADLINE", "WORLD", "QUESTION_PAIRINGS"]
