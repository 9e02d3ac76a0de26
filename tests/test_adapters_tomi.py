from pathlib import Path

import pytest

from belief.adapters import tomi
from belief.adapters.common import AdapterError, audit_entry
from belief.errors import BeliefError

FIX = Path(__file__).parent / "fixtures" / "tomi"
SHARED = Path(__file__).resolve().parents[2] / "shared"


def shared_tomi() -> Path:
    d = SHARED / "samples" / "tomi"
    if not (d / "train_sample.txt").is_file():
        pytest.skip("../shared/samples/tomi is not present beside the checkout")
    return d


def test_fixture_accuracy_and_types():
    r = tomi.grade(FIX / "mini.txt", FIX / "mini.trace")
    s = r.summary()
    assert s["dataset"] == "tomi" and s["total"] == 5 and s["agree"] == 4
    assert s["by_type"] == {"first_order": [1, 1], "memory": [1, 1], "reality": [1, 1], "second_order": [1, 2]}
    assert s["by_story_type"]["second_order_false_belief"] == [0, 1]
    q = r.questions[0]
    assert q.prediction(False) == {"id": 0, "question": "Where will Sally look for the marble?",
                                   "question_type": "first_order_1_tom", "gold": "basket", "answer": "basket",
                                   "agrees": True, "order": 1, "story_type": "false_belief"}


def test_types_inferred_without_trace_file():
    r = tomi.grade(FIX / "mini.txt")
    assert [q.qtype for q in r.questions] == ["first_order", "reality", "memory", "second_order", "second_order"]


def test_audit_explains_the_label_bug():
    r = tomi.grade(FIX / "mini.txt", FIX / "mini.trace")
    (q,) = r.disagreements()
    e = audit_entry(q)
    # Anne left before Sally came back: Anne cannot know Sally saw the box
    assert e["answer"] == "basket" and e["gold"] == "box"
    assert set(e["label_matches"]) >= {"Sally", "reality"}
    assert e["label_last_real"]["chain_agents_absent"] == ["Sally"]
    assert "Anne thinks Sally" in e["justification"]["text"]
    assert e["line"] == 28


def test_unknown_sentence_names_file_and_line():
    with pytest.raises(AdapterError, match=r"bad_sentence.txt:2: unknown ToMi sentence 'Sally juggled the marble.'"):
        tomi.grade(FIX / "bad_sentence.txt")
    assert issubclass(AdapterError, BeliefError)


def test_malformed_files(tmp_path):
    p = tmp_path / "x.txt"
    p.write_text("1 Sally entered the kitchen.\n3 The marble is in the box.\n")
    with pytest.raises(AdapterError, match="x.txt:2: line number 3 does not follow 1"):
        tomi.read_examples(p)
    p.write_text("1 Sally entered the kitchen.\n2 Where is the marble now?\tbox\t1\n")
    with pytest.raises(AdapterError, match="x.txt:2: unknown ToMi question"):
        tomi.grade(p)
    p.write_text("1 Sally entered the kitchen.\n")
    with pytest.raises(AdapterError, match="ends inside a story"):
        tomi.read_examples(p)
    with pytest.raises(AdapterError, match="trace lines"):
        tomi.read_examples(FIX / "mini.txt", FIX / "../hitom/mini.json")


def test_shared_sample_figures():
    d = shared_tomi()
    r = tomi.grade(d / "train_sample.txt", d / "train_sample.trace")
    s = r.summary()
    assert s["total"] == 90
    for t in ("first_order", "memory", "reality"):
        agree, total = s["by_type"][t]
        assert agree == total and total > 0, t
    # every second-order disagreement is explained from the trace
    for q in r.disagreements():
        assert q.group == "second_order"
        e = audit_entry(q)
        assert e["justification"]["set_by"] is not None and e["note"]
