"""``belief run transport``: one ``transport_v0`` episode of one agent type (:func:`run_episode`), and the
picklable episode function the benchmark shards (:func:`play_episode`; the benchmark is
:mod:`belief.app.bench.transport`).

Worlds: the 24 fixed episodes, or ``worlds`` generated ones (:func:`belief.envs.transport.world.
generated_spec`, seeds from :func:`belief.envs.transport.world.bench_world_seeds`). Every agent type plays
the same worlds, so differences are paired by world, which removes the between-world variance; the summary
is the one benchmark shape (:mod:`belief.app.results.comparison`, docs/benchmarks.md): cobel against each
other agent type, an ordering only when the 95% interval of the difference excludes 0.

Per episode (:func:`play_episode`, a top-level picklable function of ``(config, seed)`` returning a plain
dict) it records:

* ``transport_rate`` (targets on the bed within the budget / targets) and the world's category;
* ``message_tokens`` (:func:`belief.envs.base.tokens.count_tokens`), ``messages`` and ``comm_frames``
  (frames spent sending, TDW-MAT's one frame per 500 characters);
* ``prediction_accuracy``: each agent's top predicted next subgoal of a teammate, at each decision,
  against the subgoal that teammate really chose at its next decision (a fetch matches when the predicted
  object is in the chosen batch); pooled over the episode;
* ``persistence_accuracy``: on the same decisions, the baseline "the teammate keeps doing what it did"
  (its real previous subgoal overlaps its next one);
* ``belief_accuracy_world``: every ``SAMPLE_EVERY`` steps and at the end, each value an agent holds in its
  zero-order chain (object locations, room search levels) against the world at that moment;
  ``belief_accuracy_partner``: each value of its first-order chain ``(me, p)`` against what ``p`` really
  holds then (its own zero-order chain); ``None`` when nothing was held;
* miscoordination events against the world: ``duplicate_searches`` (searching a room level the team had
  already reached) and ``futile_trips`` (arriving where a believed object no longer is); CoBel's own
  ``detections``, ``yields`` and ``avoided_duplicates`` (yields whose work the teammate did within
  ``YIELD_WINDOW`` frames);
* issue 30: ``prediction_scores`` / ``prediction_log_loss`` (the predicted distribution and the
  information-matched predictors, accuracy and log loss, in sight and out of sight: :func:`_prediction_scores`),
  ground-truth miscoordination from the global record (``overlap_events``, ``duplicate_searches``,
  ``false_belief_acts``, their sum ``miscoordination_true``), detection precision and recall
  (:func:`_detection_scores`) and ``transport_curve`` (targets on the bed over frames, for the frames saved
  against the no-BBC ablation).

LLM mode (``llm=``, a :class:`belief.agents.transport.llm.TransportLLM`): ``cobel`` agents read
observations, predict the partner and phrase messages through the LLM, with checked, counted fallbacks;
episodes then run in this process (one client), each ``cobel`` row gets an ``llm`` entry and the summary
(and the JSON line) an ``extra.llm`` key. Without it nothing changes.
"""

from __future__ import annotations


from belief.agents.transport.baselines import AGENT_TYPES, SOLO
from belief.agents.transport.beliefs import snapshot
from belief.agents.transport.cobel import make_agents
from belief.envs.transport import environment as transport_v0
from belief.envs.transport import world as tw
from belief.envs.base.selected import tom_table_rows
from belief.envs.transport.tom import selected_set

DEFAULT_AGENTS = ("cobel", "coela", "messenger", "independent", "silent", "rhp", "rhp_alone", "cobel_nobbc",
                  "cobel_nopartner")
SAMPLE_EVERY = 5
YIELD_WINDOW = 600  # frames: a yield avoided duplicate work when the teammate did that work within it


def make_env(world, kind: str, max_steps: int | None = None):
    """The env of a fixed episode (``world`` an int) or a generated world (``("gen", seed)``)."""
    n = 1 if kind in SOLO else None
    kw = {} if max_steps is None else {"max_steps": max(max_steps, 1)}
    if isinstance(world, int):
        return transport_v0.parallel_env(episode=world, n_agents=n or 2, **kw)
    return transport_v0.parallel_env(world_seed=int(world[1]), n_agents=n, **kw)


def run_episode(world, kind: str = "cobel", planner: str | None = None, trace_path: str | None = None,
                llm=None, max_steps: int | None = None, tom: bool = True, tom_rows: bool = False,
                files: bool = False) -> dict:
    """One episode of agent type ``kind`` on ``world`` (a fixed episode index, or ``("gen", seed)``);
    a dict of figures. ``llm``: LLM mode for ``cobel`` (the row then has an ``llm`` entry: requests,
    tokens and fallbacks in this episode). ``max_steps``: stop early. ``tom``: ask the selected ToM questions
    (``tom_questions``: how many were kept; ``tom_rows``: each as a ToM-table row; ``files``: the episode's
    trace, questions and answers in the grading format, as ``_files``)."""
    env = make_env(world, kind)
    obs, infos = env.reset()
    task = infos[env.agents[0]]["task"]
    agents = make_agents(kind, env.agents, planner, llm=llm)
    llm_before = llm.report() if llm is not None and "cobel" in kind else None
    for a, ag in agents.items():
        ag.reset(task)
        ag.perceive((), infos.get(a))
    w = env.world
    selected = selected_set(env.trace.meta, env.possible_agents, (*w.targets, *w.containers), w.rooms,
                            _episode_name(world)) if tom else None
    asked: list = []
    given: dict = {}

    def ask(step: int) -> None:  # about the trace so far, answered from what each agent has taken in
        if selected is None:
            return
        selected.feed(env.trace)
        for a in env.agents:
            for q in selected.ask(step, a):
                asked.append(q)
                given[q.id] = agents[a].answer(q.public())

    acc = {"world": [0, 0], "partner": [0, 0]}
    truth = _FalseBeliefs(agents)
    step = 0
    ask(step)
    while env.agents and (max_steps is None or step < max_steps):
        actions = {a: agents[a].act(obs[a], infos[a]) for a in env.agents}
        truth.check(agents, env.world)
        if step % SAMPLE_EVERY == 0:
            _score_beliefs(acc, agents, env)
        obs, rew, term, trunc, infos = env.step(actions)
        step += 1
        for a, ag in agents.items():
            ag.perceive((), infos.get(a))
        if env.agents:
            ask(step)
    _score_beliefs(acc, agents, env)
    if trace_path:
        env.trace.write(trace_path)
    w = env.world
    row = {"world": world if isinstance(world, int) else f"gen-{world[1]}", "name": env.trace.meta.get("name"),
           "agent": kind, "family": w.family, "capacity": w.capacity, "n_agents": len(env.possible_agents),
           "rooms": len(w.rooms), **env.metrics(),
           "belief_accuracy_world": _ratio(acc["world"]), "belief_accuracy_partner": _ratio(acc["partner"]),
           **_coordination(agents, env), **_prediction_scores(agents, w), **_detection_scores(agents),
           "overlap_events": _overlap_events(agents), "false_belief_acts": truth.count,
           "transport_curve": _transport_curve(env.log), "planner": _planner_stats(agents)}
    row["miscoordination"] = row["duplicate_searches"] + row["futile_trips"]
    row["miscoordination_true"] = row["overlap_events"] + row["duplicate_searches"] + row["false_belief_acts"]
    if llm_before is not None:
        row["llm"] = _llm_delta(llm_before, llm.report())
    if selected is not None:
        kept = selected.kept()
        qs = [q for q in asked if q.id in kept]
        row["tom_questions"] = len(qs)
        if tom_rows:
            row["tom_rows"] = tom_table_rows(qs, given, kind, row["world"], selected.truth())
        if files:
            from belief.app.runners.episode_files import episode_texts

            row["_files"] = episode_texts(_episode_name(world), env.trace, [q.question for q in qs],
                                          [{"id": q.id, "agent": q.asked, "answer": given[q.id]} for q in qs])
    return row


def _episode_name(world) -> str:
    """``transport_<index>`` for a fixed episode, ``transport_gen_<seed>`` for a generated world (the stem of
    its files under ``belief run transport --out``)."""
    return f"transport_gen_{world[1]}" if isinstance(world, tuple) else f"transport_{world}"


def play_episode(config: dict, seed: int) -> dict:
    """The per-episode job (picklable, pure in its arguments): ``config`` = ``{"agents": kind, "worlds":
    "fixed" | "generated", "planner": name or None, "max_steps": n or None}``; ``seed`` is the fixed
    episode's index or the generated world's seed."""
    world = seed if config.get("worlds", "fixed") == "fixed" else ("gen", seed)
    return run_episode(world, config["agents"], config.get("planner"), max_steps=config.get("max_steps"),
                       tom=config.get("tom", True), tom_rows=config.get("tom_rows", False),
                       files=config.get("files", False))


def _ratio(pair):
    return pair[0] / pair[1] if pair[1] else None


def _score_beliefs(acc: dict, agents: dict, env) -> None:
    """Held values against the world (zero order) and against the teammate's real beliefs (first order)."""
    w = env.world
    snaps = {a: snapshot(ag.state) for a, ag in agents.items()}
    for a, snap in snaps.items():
        for (pred, subj), v in snap[(a,)].items():
            real = w.location[subj] if pred == "in" else tw.EXPLORE_STATES[w.explored[subj]]
            acc["world"][0] += v == real
            acc["world"][1] += 1
        if not agents[a].config.first_order:
            continue
        for chain, held in snap.items():
            if len(chain) != 2 or chain[1] not in snaps:
                continue
            theirs = snaps[chain[1]][(chain[1],)]
            for key, v in held.items():
                acc["partner"][0] += theirs.get(key) == v
                acc["partner"][1] += 1


def _coordination(agents: dict, env) -> dict:
    """Prediction accuracy against what teammates really chose next, and what yields avoided."""
    right = total = kept = 0
    for ag in agents.values():
        for frame, p, key in ag.predictions:
            nxt = next((keys for f, keys in agents[p].decisions if f >= frame), None)
            if nxt is None:
                continue
            total += 1
            right += key in nxt
            prev = next((keys for f, keys in reversed(agents[p].decisions) if f < frame), set())
            kept += bool(prev & nxt)  # "it keeps doing what it did": its previous subgoal overlaps its next
    done: dict = {}
    for f, a, what, subj, _ in env.log:
        if what in ("grasp", "explore"):
            done.setdefault((a, "fetch" if what == "grasp" else "explore", subj), []).append(f)
    yields = [(f, p, k) for ag in agents.values() for f, p, keys in ag.yields for k in keys]
    avoided = sum(1 for f, p, k in yields if any(f <= t <= f + YIELD_WINDOW for t in done.get((p, *k), ())))
    return {"predictions": total, "prediction_accuracy": right / total if total else None,
            "prediction_right": right, "persistence_right": kept,
            "persistence_accuracy": kept / total if total else None,
            "detections": sum(ag.detections for ag in agents.values()), "yields": len(yields),
            "avoided_duplicates": avoided, "futile_trips": sum(ag.state.noticed_gone for ag in agents.values())}


# ---------------------------------------------------------------------------------------------
# partner prediction, scored as a distribution against information-matched predictors
# ---------------------------------------------------------------------------------------------

PREDICTORS = ("bayes", "last_seen", "frequent", "uniform", "persistence_oracle", "bayes_lapse")
LAPSE = 0.3  # the diagnostic ``bayes_lapse``: this share of the prediction moved to the uniform over its support
SPLITS = ("all", "in_sight", "out_of_sight")
NOT_WORK = frozenset({("deliver",), ("wait",)})  # subgoal keys two agents can share without duplicating work


def subgoal_universe(world) -> int:
    """How many subgoal keys there are: a fetch per target and container, a search per room, deliver, wait."""
    return len(world.targets) + len(world.containers) + len(world.rooms) + 2


def _prediction_scores(agents: dict, world) -> dict:
    """Every forecast (``TransportAgent.forecasts``) scored against the subgoal the teammate really chose at
    its next decision: per predictor (``bayes``: the agent's prediction; ``last_seen``, ``frequent``,
    ``uniform``: information-matched, :func:`belief.agents.transport.partner.matched_predictors`;
    ``persistence_oracle``: uniform over the teammate's real previous subgoal, which no agent sees;
    ``bayes_lapse``: a diagnostic, ``bayes`` with ``LAPSE`` of its mass moved to the uniform over its support,
    which the agent does not use: it shows how much of ``bayes``' log loss is overconfidence) and
    split (teammate in my room or not): ``[n, top hits, summed log loss, covered]``
    (:mod:`belief.app.results.scoring`; ``covered``: forecasts whose outcome is in the support of ``bayes``,
    the subgoals feasible for the teammate as the agent models it, which the matched predictors share). ``prediction_log_loss``: the mean log loss of ``bayes``."""
    from belief.app.results.scoring import log_loss, top_hit

    universe = subgoal_universe(world)
    table = {k: {sp: [0, 0.0, 0.0, 0] for sp in SPLITS} for k in PREDICTORS}
    for ag in agents.values():
        for frame, p, dists, in_sight in ag.forecasts:
            decisions = agents[p].decisions
            nxt = next((keys for f, keys in decisions if f >= frame), None)
            if nxt is None:
                continue
            prev = next((keys for f, keys in reversed(decisions) if f < frame), set())
            oracle = {g: 1.0 / len(prev) for g in prev} if prev else {}
            lapse = {g: (1 - LAPSE) * q + LAPSE * dists["uniform"].get(g, 0.0) for g, q in dists["bayes"].items()}
            for k, dist in (*dists.items(), ("persistence_oracle", oracle), ("bayes_lapse", lapse)):
                for sp in ("all", "in_sight" if in_sight else "out_of_sight"):
                    cell = table[k][sp]
                    cell[0] += 1
                    cell[1] += top_hit(dist, nxt)
                    cell[2] += log_loss(dist, nxt, universe)
                    cell[3] += bool(set(nxt) & set(dists["bayes"]))
    n = table["bayes"]["all"][0]
    return {"prediction_scores": table if n else None,
            "prediction_log_loss": table["bayes"]["all"][2] / n if n else None}


# ---------------------------------------------------------------------------------------------
# miscoordination, from the global record: what every agent really pursued, what the world was
# ---------------------------------------------------------------------------------------------

def _overlap_events(agents: dict) -> int:
    """Times two agents began heading for the same object or room: over every agent's real subgoals in frame
    order (each holds from its decision to the next), a key newly shared by two agents' current subgoals
    (delivering and waiting are not work that can be duplicated)."""
    timeline = sorted((f, i, a, keys) for i, (a, ag) in enumerate(agents.items()) for f, keys in ag.decisions)
    current: dict = {}
    shared: dict = {}
    events = 0
    for _, _, a, keys in timeline:
        current[a] = set(keys) - NOT_WORK
        for b, theirs in current.items():
            if b == a:
                continue
            pair = tuple(sorted((a, b)))
            now = current[a] & theirs
            events += len(now - shared.get(pair, set()))
            shared[pair] = now
    return events


class _FalseBeliefs:
    """Acting on a false belief a teammate could have corrected: an agent takes up a subgoal key (one its
    previous subgoal did not have) that rests on a belief the world contradicts, while a teammate holds the
    true value: fetching an object believed where it no longer is, or searching a room the team has searched
    fully, believing it is not (the teammate holds ``all``)."""

    def __init__(self, agents: dict):
        self.seen = {a: 0 for a in agents}
        self.prev: dict = {a: set() for a in agents}
        self.count = 0

    def check(self, agents: dict, world) -> None:
        for a, ag in agents.items():
            if len(ag.decisions) == self.seen[a]:
                continue
            self.seen[a] = len(ag.decisions)
            keys = ag.decisions[-1][1]
            new, self.prev[a] = keys - self.prev[a], set(keys)
            others = [b for b in agents if b != a]
            for key in new:
                if key[0] == "fetch":
                    pred, true = "in", world.location[key[1]]
                elif key[0] == "explore" and world.explored[key[1]] == 2:
                    pred, true = "explored", tw.EXPLORE_STATES[2]
                else:
                    continue
                if ag.state.store.value((a,), pred, key[1]) != true and \
                        any(agents[b].state.store.value((b,), pred, key[1]) == true for b in others):
                    self.count += 1


def _detection_scores(agents: dict) -> dict:
    """Each detection test (``TransportAgent.checks``) against the truth: did the teammate's next subgoal,
    before any yield of its own (``intended``), overlap the one I intended? A detection is P(overlap) at or
    above the agent's ``conflict_threshold``. ``None`` where no agent tests."""
    counts = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    for ag in agents.values():
        for frame, p, keys, q in ag.checks:
            other = agents[p]
            i = next((i for i, (f, _) in enumerate(other.decisions) if f >= frame), None)
            if i is None:
                continue
            real = bool(set(keys) & (set(other.intended[i]) - NOT_WORK))
            said = q >= ag.config.conflict_threshold
            counts[("t" if said == real else "f") + ("p" if said else "n")] += 1
    if not sum(counts.values()):
        return {"detection_counts": None, "detection_precision": None, "detection_recall": None}
    said, real = counts["tp"] + counts["fp"], counts["tp"] + counts["fn"]
    return {"detection_counts": counts, "detection_precision": counts["tp"] / said if said else None,
            "detection_recall": counts["tp"] / real if real else None}


def _transport_curve(log: list) -> list:
    """``[[frame, targets on the bed], ...]`` at each delivery (the env's work log)."""
    out, total = [], 0
    for f, _, what, _, n in log:
        if what == "transport" and n:
            total += n
            out.append([f, total])
    return out


def _planner_stats(agents: dict) -> dict:
    out: dict = {}
    for ag in agents.values():
        for k, v in ag.planner.stats.items():
            out[k] = out.get(k, 0) + v
    return out


def _llm_delta(before: dict, after: dict) -> dict:
    out = {}
    for k, v in after.items():
        if isinstance(v, dict):
            out[k] = {kk: vv - before[k].get(kk, 0) for kk, vv in v.items()}
        elif isinstance(v, int) and not isinstance(v, bool):
            out[k] = v - before.get(k, 0)
        else:
            out[k] = v
    return out


__all__ = ["AGENT_TYPES", "DEFAULT_AGENTS", "PREDICTORS", "SPLITS", "play_episode", "run_episode",
           "subgoal_universe"]
