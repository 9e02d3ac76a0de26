import json

import pytest

from belief.envs.bomb.grading import grade_files
from belief.grading.answers import read_yes_no
from belief.grading.report import GradingError, grade


@pytest.mark.parametrize("text,expected", [
    ("Yes", True), ("yes.", True), ("YES, she does.", True), ("**Answer:** No", False),
    ("No, Charlie does not know the sequence of Bomb 3 because he never inspected it.", False),
    ("Bravo does not know the contents of Room 5.", False),
    ("Charlie is not aware that I know the contents of Room 8.", False),
    ("I believe so, Alpha saw it.", True), ("Alpha knows it: she inspected the bomb.", True),
    ("The answer is no.", False), ("Answer: yes", True), ("Nope", False),
    ("Maybe", None), ("", None), ("Yes and no", None), (None, None), (True, True),
])
def test_extract(text, expected):
    assert read_yes_no(text) is expected


def _qs():
    return [{"id": "a", "level": "introspection", "answer": True},
            {"id": "b", "level": "first_order", "answer": False},
            {"id": "c", "level": "second_order", "answer": False},
            {"id": "d", "level": "second_order", "answer": True}]


def test_grade_report():
    rep = grade(_qs(), [{"id": "a", "answer": "Yes"}, {"id": "b", "answer": "No, he does not."},
                        {"id": "c", "answer": "perhaps"}, {"id": "z", "answer": "yes"}])
    assert rep.accuracy("introspection") == 1.0 and rep.accuracy("first_order") == 1.0
    assert rep.accuracy("second_order") == 0.0
    assert rep.unparseable == [("c", "perhaps")] and rep.missing == ["d"] and rep.unknown_ids == ["z"]
    j = rep.to_json()
    assert j["total"]["second_order"] == 2 and j["unparseable"][0]["id"] == "c"


def test_grade_errors(tmp_path):
    with pytest.raises(GradingError):
        grade(_qs(), [{"answer": "yes"}])
    bad = tmp_path / "a.jsonl"
    bad.write_text("{not json\n")
    from belief.app.runners.bomb import run_episode

    m = run_episode("belief", 0, max_rounds=4, out=tmp_path)  # a short episode: ~100 questions to grade
    with pytest.raises(GradingError, match="a.jsonl:1"):
        grade_files(m["files"]["trace"], bad)
    rep = grade_files(m["files"]["trace"], m["files"]["answers"])
    study = [q for q in m["_questions"] if q.set != "selected"]  # the three levels: the study and probe sets
    acc = grade(study, m["_answers"]).accuracy()
    assert rep.accuracy() == acc and 0.5 < acc <= 1.0  # the files grade as the run did
    # flipping every answer gives 0%
    flipped = tmp_path / "flip.jsonl"
    levelled = {q.id for q in study}
    rows = [json.loads(x) for x in open(m["files"]["answers"]) if json.loads(x)["id"] in levelled]
    flipped.write_text("".join(json.dumps({"id": r["id"], "answer": "No." if r["answer"].startswith("Yes") else
                                           "Yes."}) + "\n" for r in rows))
    assert grade_files(m["files"]["trace"], flipped).accuracy() == pytest.approx(1.0 - acc)


def test_grade_odd_answer_records():
    """Regression: a non-object answer line or a non-string id raised AttributeError/TypeError (a raw
    traceback from `belief grade`); an integer id crashed the CLI's unknown-id listing."""
    for bad in (["id"], "valid", 3, {"id": ["x"], "answer": "yes"}, {"id": None, "answer": "yes"}):
        with pytest.raises(GradingError):
            grade(_qs(), [bad])
    rep = grade(_qs(), [{"id": 7, "answer": "yes"}, {"id": "a", "answer": "yes"}])
    assert rep.unknown_ids == ["7"] and rep.correct["introspection"] == 1
    assert grade(_qs(), {"a": "yes", 7: "no"}).unknown_ids == ["7"]


def test_read_jsonl_non_utf8_file_is_a_grading_error(tmp_path):
    """Regression: a non-UTF-8 answers file raised UnicodeDecodeError (a raw traceback from `belief grade`)."""
    from belief.grading.report import read_jsonl

    bad = tmp_path / "answers.jsonl"
    bad.write_bytes(b"\xff\xfe{}\n")
    with pytest.raises(GradingError, match="cannot read"):
        read_jsonl(bad)


@pytest.mark.parametrize("text,expected", [
    ("Bravo doesn't know the contents of Room 3.", False),   # regression: contractions were stripped
    ("Bravo doesn\u2019t know it", False),
    ("Bravo doesnt know", False),
    ("He isn't aware that I know it", False),
    ("Charlie hasn't seen it", False),
    ("I don't think so", False),
    ("I do not know the contents of Room 3.", False),         # an answer to "Do you know ...?"
    ("I don't know.", None),                                  # takes no side
    ("I'm not sure", None),
    ("No idea.", None),
    ("Yes, Bravo knows it.", True),
])
def test_contractions_and_non_answers(text, expected):
    assert read_yes_no(text) is expected
