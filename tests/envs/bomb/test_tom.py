"""The bomb world's questions: pure, complete, and their gold derived here from the checker by the study's
definitions (never from the world's own answer function)."""

import json

import pytest

from belief.envs.bomb.events import f_changed, f_contents, f_last_defusal, f_last_defuser, f_seq
from belief.envs.bomb.tom import LEVELS, SETS, TEMPLATES, questions
from belief.errors import TraceError
from belief.truth.checker import check
from belief.truth.trace import Trace


@pytest.fixture(scope="module")
def episode(tmp_path_factory):
    from belief.app.runners.bomb import run_episode

    out = tmp_path_factory.mktemp("bomb")
    m = run_episode("belief", 2, out=out)
    return m, Trace.read(m["files"]["trace"])


def _study_gold(truth, q) -> bool:
    """The study's templates, hand-stated: K(chain, F) on the template's fluent, with the fact holding."""
    b, at = q.subject, q.t
    if q.variant == "you_changed":  # "is X aware that you changed Bomb b": you defused it last and X knows who
        return (truth.reality(f_last_defuser(b), at) == q.asked
                and truth.knows_chain((q.target,), f_last_defuser(b), at))
    chain = {"introspection": (q.asked,), "first_order": (q.target,), "second_order": (q.target, q.asked)}[q.level]
    fluent = {"contents": f_contents, "sequence": f_seq, "changed": f_changed, "just_defused": f_last_defusal}[
        q.template](b)
    if q.template == "changed" and truth.reality(fluent, at) != "yes":
        return False
    if q.template == "just_defused":
        v = truth.reality(fluent, at) or ""
        if not (v.startswith("turn_") and int(v[5:]) > q.turn - 3):
            return False
    return truth.knows_chain(chain, fluent, at)


def test_questions_pure_and_complete(episode):
    m, trace = episode
    q1 = [q.to_json() for q in questions(trace)]
    q2 = [q.to_json() for q in questions(Trace.read(m["files"]["trace"]))]
    assert q1 == q2
    study = [q for q in q1 if q["set"] in ("study", "probe")]
    assert len(study) == 3 * 2 * m["actions"]
    assert {q["set"] for q in q1} == set(SETS)
    assert {q["level"] for q in study} == set(LEVELS)
    assert {q["template"] for q in study} <= set(TEMPLATES)
    assert all(q["target"] != q["asked"] for q in study)


def test_gold_is_the_checkers_by_the_study_definitions(episode):
    _, trace = episode
    truth = check(trace)
    qs = questions(trace)
    for q in qs:
        if q.set == "selected":  # "Does X know F?" / "Is X aware that Y knows F?": K(chain, F) at the turn's end
            g = q.general()
            assert q.gold == ("yes" if truth.knows_chain(g.chain, g.fluent, q.t) else "no")
            assert q.asked not in g.chain[:1] or len(g.chain) > 1  # never "Do you know F?"
        else:
            assert q.answer == _study_gold(truth, q), q.id
    golds = [q.answer for q in qs if q.set == "study"]
    assert True in golds and False in golds  # both answers occur: the comparison is not vacuous


def test_the_questions_file_regrades_to_the_rows(episode):
    """`belief run bomb --out` writes the questions in the grading format: `belief grade` regrades them."""
    from belief.grading.files import load_answers, load_questions
    from belief.grading.report import episode_id, grade_trace, trace_digest

    m, trace = episode
    qs = load_questions(m["files"]["questions"], episode_id(trace))
    answers = load_answers(m["files"]["answers"], episode_id(trace), trace_digest(trace))
    rep = grade_trace(trace, qs, answers)
    rows = {r["id"]: r for r in m["_rows"]}
    assert len(rep.rows) == len(rows) and not rep.unknown_ids
    assert all(r["correct"] == rows[r["id"]]["correct"] and r["gold"] == rows[r["id"]]["gold"] for r in rep.rows)
    assert {r["phenomenon"] for r in rep.rows} - {None}  # the selected questions name their phenomenon


def test_questions_reject_other_traces():
    with pytest.raises(TraceError):
        questions(Trace(meta={"env": "other"}))


def test_malformed_trace_is_a_trace_error(tmp_path):
    """Regression: a bomb_v0 trace missing meta keys or event params raised a bare KeyError (a raw
    traceback from `belief grade`); it is a TraceError naming the place."""
    from belief.envs.bomb import environment as bomb_v0

    e = bomb_v0.raw_env(seed=0)
    for _ in range(3):
        e.step(5)
    path = tmp_path / "t.jsonl"
    e.trace.write(path)
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    del head["meta"]["bombs"]
    bad_meta = tmp_path / "m.jsonl"
    bad_meta.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    with pytest.raises(TraceError, match="malformed bomb_v0 trace"):
        questions(Trace.read(bad_meta))
    acts = [i for i, line in enumerate(lines) if '"name": "move"' in line or '"name": "inspect"' in line]
    ev = json.loads(lines[acts[0]])
    ev["params"] = {}
    bad_ev = tmp_path / "e.jsonl"
    bad_ev.write_text("\n".join(lines[:acts[0]] + [json.dumps(ev)] + lines[acts[0] + 1:]) + "\n")
    with pytest.raises(TraceError, match="malformed bomb_v0 trace"):
        questions(Trace.read(bad_ev))


def test_knows_that_a_bomb_changed_needs_the_change():
    """"Do you know that Bomb 1 has changed?" is No while it has not, though everyone knows it has not (the
    rules say bombs start unchanged); once Alpha has cut a phase of it, Alpha knows that it has."""
    from belief.envs.bomb import environment as bomb_v0
    from belief.envs.bomb.events import f_changed
    from belief.envs.bomb.text import TextInterface
    from belief.envs.bomb.tom import answer
    from belief.envs.bomb.world import DEFAULT_MAP, Bomb, World
    from belief.truth.checker import check

    bombs = {1: (5, ("red", "green")), 2: (3, ("blue",)), 3: (0, ("green", "green", "blue")), 4: (6, ("red",)),
             5: (8, ("blue", "red"))}
    w = World(DEFAULT_MAP, {b: Bomb(b, r, s) for b, (r, s) in bombs.items()}, {a: 5 for a in ("alpha", "bravo", "charlie")})
    e = bomb_v0.raw_env(seed=0)
    e.reset(options={"world": w})
    ti = TextInterface(e)
    ti.step("Inspect Bomb")
    truth = check(e.trace)
    at = len(e.trace) - 1
    assert truth.reality(f_changed(1), at) == "no" and truth.knows_chain(("alpha",), f_changed(1), at)
    for level in ("introspection", "first_order", "second_order"):
        assert answer(truth, level, "alpha", "bravo", "changed", 1, 0, at) is False
    ti.step("Inspect Bomb")
    ti.step("Inspect Bomb")
    ti.step("Apply Red Tool")  # alpha cuts the red phase
    truth = check(e.trace)
    at = len(e.trace) - 1
    assert answer(truth, "introspection", "alpha", "bravo", "changed", 1, 3, at) is True
