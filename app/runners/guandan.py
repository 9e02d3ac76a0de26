"""Play Guandan games and the study's evaluation: one game is a pure, picklable function of (config, seed).

A game is one deal from level 2 (``deals`` more with tribute between them, if asked). A *matchup* is team A
(the investigated kind) against team B on seeds S..S+games-1, each seed played twice: team A in seats 0/2,
then in seats 1/3 (the same cards in both seatings: position swapping, as in the study, and paired). Win rates come with Wilson
95% intervals; the level gain (+upgrade when team A wins the last deal, -upgrade when it loses) with a t
interval. ToM questions (:mod:`belief.envs.guandan.tom`) are asked after every play of a ToM planner; rows carry
its answer (answerer ``planner``), the checker's exact answer and the trivial answerers, for :func:`belief.grading.trivial.tom_table`.
"""

from __future__ import annotations

from dataclasses import dataclass

from belief.agents.guandan.basic import GuandanKeeperAgent, GuandanRandomAgent, GuandanRuleAgent
from belief.agents.guandan.tom_planner import GuandanPlannerAgent, GuandanToMAgent
from belief.app.runners.feed import QuestionFeed
from belief.envs.guandan import environment as guandan_v0
from belief.envs.guandan.events import PLAYERS
from belief.envs.base.selected import SelectedQuestion
from belief.envs.guandan.tom import SelectedSet, is_play, label, play_questions, trivial_answers
from belief.errors import BeliefError
from belief.grading.answers import read_yes_no
from belief.grading.stats import mean_ci95, wilson_ci95
from belief.grading.shortcuts import SHORTCUTS
from belief.grading.trivial import tom_table

AGENT_KINDS = {"tom": GuandanToMAgent, "planner": GuandanPlannerAgent, "rule": GuandanRuleAgent,
               "rule_keep": GuandanKeeperAgent, "random": GuandanRandomAgent}
#: the head-to-head matchups of the bench: the study's three, then the ToM planner against its ablation (the
#: planner with its belief branches off) and against the strongest simple baseline (the rule agent that keeps
#: its bombs and wilds)
MATCHUPS = (("tom", "rule"), ("tom", "random"), ("rule", "random"), ("tom", "planner"), ("tom", "rule_keep"))


@dataclass(frozen=True)
class GuandanConfig:
    team_a: str = "tom"
    team_b: str = "rule"
    swap: bool = False          # team A in seats 1/3 instead of 0/2
    deals: int = 1
    pass_rule: str = "free"
    ask: bool = True            # ToM questions to the ToM planners
    selected: bool = True       # ask them the selected set too (envs/guandan/tom.py: SelectedSet)
    files: bool = False         # return the game's files (trace, questions, answers) as ``_files``


def seats_of(config: GuandanConfig) -> dict:
    """player -> agent kind."""
    a_seats = (1, 3) if config.swap else (0, 2)
    return {p: (config.team_a if i in a_seats else config.team_b) for i, p in enumerate(PLAYERS)}


def make_agents(config: GuandanConfig, seed: int) -> dict:
    kinds = seats_of(config)
    for kind in set(kinds.values()):
        if kind not in AGENT_KINDS:
            raise BeliefError(f"unknown Guandan agent kind {kind!r}; expected one of {', '.join(AGENT_KINDS)}")
    return {p: AGENT_KINDS[k](p, seed=seed) for p, k in kinds.items()}


def play_game(config: GuandanConfig, seed: int, *, keep_trace: bool = False, agents: dict | None = None) -> dict:
    """One seeded game: whether team A won, its level gain, turns, and the ToM rows of its ToM planners: the
    level questions (``type`` the order, ``template`` the hand property) and, with ``selected``, the selected
    set (``type`` its template, ``set`` "selected"), each with the planner's answer read by the one reader and
    the kernel's panel of shortcuts beside it."""
    ask = config.ask and "tom" in (config.team_a, config.team_b)
    selected_on = ask and (config.selected or config.files)
    e = guandan_v0.raw_env(seed=seed, deals=config.deals, pass_rule=config.pass_rule, record_trace=ask or keep_trace,
                           private_traces=selected_on)
    agents = agents or make_agents(config, seed)
    asked_kinds = {p for p, kind in seats_of(config).items() if kind == "tom"}
    selected = SelectedSet(e.trace.meta, seed, asked=asked_kinds) if selected_on else None

    def questions_of(ev) -> list:
        out = list(play_questions(ev, seed)) if ask and is_play(ev) and ev.params["player"] in asked_kinds else []
        return out + (selected.feed(ev) if selected is not None else [])

    update = QuestionFeed(e, agents, questions_of)
    given = update.given
    update()
    while not all(e.terminations.values()):
        name = e.agent_selection
        e.step(agents[name].act(e.observe(name), e.infos[name]))
        update()
    qs = [q for q in update.asked if not isinstance(q, SelectedQuestion)]
    kept = selected.kept() if selected is not None else set()
    sel = [q for q in update.asked if isinstance(q, SelectedQuestion) and q.id in kept]
    a_team = 1 if config.swap else 0
    last = e.results[-1]
    won = last["winning_team"] == a_team
    out = {"seed": seed, "team_a": config.team_a, "team_b": config.team_b, "swap": config.swap,
           "win": int(won), "level_gain": last["upgrade"] if won else -last["upgrade"], "turns": e.turn,
           "deals": len(e.results), "finish": last["finish"]}
    episode = f"{config.team_a}_vs_{config.team_b}:{seed}"
    if ask and qs:
        from belief.truth.checker import check
        truth = check(e.trace)
        label(e.trace, qs)
        rows = []
        for q in qs:
            played = {k for ev in e.trace if is_play(ev) and ev.t <= q.t for k in ev.params["cards"]}
            trivial = trivial_answers(truth, q, played)
            reading = read_yes_no(given[q.id])
            rows.append({"type": q.level, "template": q.template, "gold": _yn(q.answer), "episode": episode,
                         "answers": {"planner": _yn(reading) if reading is not None else "unreadable",
                                     "public_record": _yn(trivial["public_record"]),
                                     "as_self": _yn(trivial["as_self"])}})
        out["tom_rows"] = rows
    if sel and config.selected:
        from belief.grading.report import read_answer

        out["selected_rows"] = [{"type": q.template, "gold": q.gold, "episode": episode, "set": "selected",
                                 "answers": {"planner": read_answer(q.question, given[q.id]),
                                             **q.shortcuts}} for q in sel]
    if config.files and ask:
        from belief.app.runners.episode_files import episode_texts

        stem = f"guandan_{config.team_a}_vs_{config.team_b}_{seed}" + ("_swapped" if config.swap else "")
        out["_files"] = episode_texts(stem, e.trace, [q.question for q in sel],
                                      [{"id": q.id, "agent": q.asked, "answer": given[q.id]} for q in sel])
    if keep_trace:
        out["_trace"] = e.trace
    return out


def _yn(value: bool) -> str:
    return "yes" if value else "no"


def matchup_tasks(team_a: str, team_b: str, games: int, seed: int, *, deals: int = 1, pass_rule: str = "free",
                  ask: bool = True, files: bool = False) -> list[tuple]:
    """The ``(config, seed)`` of each game of a matchup: every seed S..S+games-1 twice, team A in seats 0/2 and
    then in seats 1/3 (the same cards, both seatings: ``2 * games`` games)."""
    return [(GuandanConfig(team_a, team_b, swap, deals, pass_rule, ask, files=files), seed + i)
            for i in range(games) for swap in (False, True)]


def per_deal(rows: list) -> list[dict]:
    """One row per seed: team A's win share and level gain averaged over the seatings it was played in."""
    by_seed: dict = {}
    for r in rows:
        by_seed.setdefault(r["seed"], []).append(r)
    return [{"seed": s, "win": sum(r["win"] for r in rs) / len(rs),
             "level_gain": sum(r["level_gain"] for r in rs) / len(rs), "seatings": len(rs)}
            for s, rs in by_seed.items()]


def matchup(team_a: str, team_b: str, games: int, seed: int, *, deals: int = 1, pass_rule: str = "free",
            ask: bool = True, progress=None, executor: str = "serial", workers: int | None = 1,
            address: str | None = None) -> tuple[dict, list]:
    """``games`` games of team A against team B (seats swapped for the second half): the figures and the rows,
    the games played on `executor` (:func:`belief.app.runs.executor.run_tasks`); ``progress()`` after each."""
    from belief.app.runs.executor import Star, run_tasks

    tasks = matchup_tasks(team_a, team_b, games, seed, deals=deals, pass_rule=pass_rule, ask=ask)
    rows = run_tasks(Star(play_game), tasks, executor, workers, address,
                     progress=(lambda i, r: progress()) if progress is not None else None)
    return matchup_figures(team_a, team_b, rows), rows


def matchup_figures(team_a: str, team_b: str, rows: list) -> dict:
    wins = sum(r["win"] for r in rows)
    n = len(rows)
    lo, hi = wilson_ci95(wins, n)
    gains = [r["level_gain"] for r in rows]
    mean, (glo, ghi) = mean_ci95(gains)
    by_seats = {}
    for label_, swap in (("0/2", False), ("1/3", True)):
        part = [r for r in rows if r["swap"] == swap]
        if part:
            w = sum(r["win"] for r in part)
            by_seats[label_] = {"games": len(part), "wins": w, "win_rate": w / len(part),
                                "ci95": list(wilson_ci95(w, len(part)))}
    return {"team_a": team_a, "team_b": team_b, "games": n, "wins": wins, "win_rate": wins / n if n else None,
            "ci95": [lo, hi], "level_gain": mean, "level_gain_ci95": [glo, ghi] if n > 1 else None,
            "by_seats": by_seats, "mean_turns": sum(r["turns"] for r in rows) / n if n else None}


def tom_figures(rows: list) -> dict:
    """ToM accuracy by order and by (order, template), the trivial answerers beside (tom_table)."""
    tom_rows = [r for g in rows for r in g.get("tom_rows", [])]
    if not tom_rows:
        return {"questions": 0}
    by_order = tom_table(tom_rows)
    by_template = tom_table([{**r, "type": f"{r['type']}/{r['template']}"} for r in tom_rows])
    return {"questions": len(tom_rows), "by_order": by_order, "by_template": by_template}


def tom_extra(rows: list) -> dict:
    """``extra.tom`` of the bench: ``{"tom": table}``, the ToM planners' table (answerer ``planner``, the
    headline of the paired margins) of the level questions (type ``order/template``, with this world's two old
    answerers) and the selected set (type its template, beside the kernel's panel of shortcuts)."""
    level = [{**r, "type": f"{r['type']}/{r['template']}"} for g in rows for r in g.get("tom_rows", [])]
    selected = [r for g in rows for r in g.get("selected_rows", [])]
    if not level and not selected:
        return {}
    return {"tom": tom_table(level + selected, SHORTCUTS, headline="planner")}


__all__ = ["AGENT_KINDS", "GuandanConfig", "MATCHUPS", "make_agents", "matchup", "matchup_figures", "matchup_tasks",
           "per_deal", "play_game",
           "seats_of", "tom_extra", "tom_figures"]
