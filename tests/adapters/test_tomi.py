from pathlib import Path

import pytest

from belief.adapters import tomi
from belief.adapters.common import AdapterError, audit_entry
from belief.errors import BeliefError

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "tomi"
SHARED = Path(__file__).resolve().parents[3] / "shared"


def shared_tomi() -> Path:
    d = SHARED / "samples" / "tomi"
    if not (d / "train_sample.txt").is_file():
        pytest.skip("../shared/samples/tomi is not present beside the checkout")
    return d


def test_fixture_accuracy_and_types():
    r = tomi.grade(FIX / "mini.txt", FIX / "mini.trace")
    s = r.summary()
    # 1 disagreement: the second-order question at line 28, whose label forgets that Anne left before
    # Sally came back (ToMi's second-order label bug; test_audit_explains_the_label_bug)
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


# The ten questions of the shared sample whose label the strict semantics do not give, by line: the two
# second-order questions (A about B, B about A) of five stories. Each is a `second_order_*_no_tom` question
# where one agent moved the object after the other had left, and the label is where the object really is,
# although an agent of the chain was absent from that move: ToMi's known second-order label bug (its
# labeller answers these from reality, not from what the chain's agents saw; docs/grading.md).
TOMI_SAMPLE_LABEL_BUGS = {201, 234, 258, 282, 450, 474, 678, 708, 738, 768}


def test_shared_sample_figures():
    d = shared_tomi()
    r = tomi.grade(d / "train_sample.txt", d / "train_sample.trace")
    s = r.summary()
    # 90 questions, 80 agreeing with the labels: all 10 misses are the second-order label bugs above
    assert (s["total"], s["agree"]) == (90, 80)
    assert s["by_type"] == {"first_order": [30, 30], "memory": [15, 15], "reality": [15, 15],
                            "second_order": [20, 30]}
    # the ten fall in 1 story of each non-second-order type (2 questions each) and 3 second-order stories
    assert s["by_story_type"] == {"false_belief": [22, 24], "second_order_false_belief": [18, 24],
                                  "true_belief": [40, 42]}
    audits = [audit_entry(q) for q in r.disagreements()]
    assert {e["line"] for e in audits} == TOMI_SAMPLE_LABEL_BUGS and len(audits) == 10
    for e in audits:  # each explained from the trace as the bug class above
        assert e["question_type"].startswith("second_order_") and e["question_type"].endswith("_no_tom")
        assert "reality" in e["label_matches"] and e["label_last_real"]["chain_agents_absent"], e["line"]
        assert e["justification"]["set_by"] is not None and e["note"]


# --- where a stated container is: from the story, not from the last 'entered' line -----------------------

# The rooms the containers of bystander.txt were written in (by hand, not derived by the adapter).
BYSTANDER_ROOMS = {"box": "kitchen", "basket": "kitchen", "crate": "hall", "drawer": "hall", "chest": "attic",
                   "tin": "attic", "jar": "kitchen", "tin_box": "kitchen", "cup": "office", "tray": "office",
                   "bag": "lab", "crate_2": "lab", "bin": "den", "jar_2": "study", "vase": "study"}


def observer_replay(sentences, rooms):
    """The observer rule, replayed sentence by sentence with plain dicts: an agent believes the object's
    location at the last event it observed (present in the container's room when the object was stated or
    moved, or entering the room where it is); a pair (a, b) holds the value of the last event both observed.
    Returns (reality, first value, {(a, o): v}, {(a, b, o): v})."""
    import re

    loc, real, first, b1, b2 = {}, {}, {}, {}, {}

    def observed(room, objs):
        present = [a for a, r in loc.items() if r == room]
        for o in objs:
            for a in present:
                b1[(a, o)] = real[o]
                for b in present:
                    if b != a:
                        b2[(a, b, o)] = real[o]

    for s in sentences:
        s = s.rstrip(".")
        if m := re.fullmatch(r"The (\S+) is in the (\S+)", s):
            o, c = m.groups()
            real[o] = c
            first.setdefault(o, c)
            observed(rooms[c], [o])
        elif m := re.fullmatch(r"(\S+) (?:entered|is in) the (\S+)", s):
            a, r = m.groups()
            loc[a] = r
            observed(r, [o for o, c in real.items() if rooms[c] == r])
        elif m := re.fullmatch(r"(\S+) exited the (\S+)", s):
            loc[m.group(1)] = None
        elif m := re.fullmatch(r"(\S+) moved the (\S+) to the (\S+)", s):
            a, o, c = m.groups()
            real[o] = c
            first.setdefault(o, c)
            observed(loc[a], [o])
    return real, first, b1, b2


def replay_answer(question, state):
    import re

    real, first, b1, b2 = state
    if m := re.fullmatch(r"Where was the (\S+) at the beginning\?", question):
        return first.get(m.group(1))
    if m := re.fullmatch(r"Where is the (\S+) really\?", question):
        return real.get(m.group(1))
    if m := re.fullmatch(r"Where will (\S+) look for the (\S+)\?", question):
        return b1.get(m.groups())
    if m := re.fullmatch(r"Where does (\S+) think that (\S+) searches for the (\S+)\?", question):
        return b2.get(m.groups())
    raise AssertionError(question)


def distinct_stories(path):
    seen = {}
    for ex in tomi.read_examples(path):
        seen.setdefault(tuple(t for _, t in ex.story), ex.story)
    return list(seen.values())


def test_bystander_stories_every_question_answered_by_the_observer_rule():
    path = FIX / "bystander.txt"
    examples = tomi.read_examples(path)
    r = tomi.grade(path)
    assert len(r.questions) == len(examples) == 54
    for ex, q in zip(examples, r.questions):
        expected = replay_answer(q.question, observer_replay([t for _, t in ex.story], BYSTANDER_ROOMS))
        assert q.answer is not None, (ex.line, q.question)
        assert q.answer == expected == ex.answer, (ex.line, q.question)
    s = r.summary()
    assert s["agree"] == s["total"] == 54


def test_bystander_stories_every_chain_matches_the_observer_rule():
    from belief.truth.checker import check

    stories = distinct_stories(FIX / "bystander.txt")
    assert len(stories) == 7
    for story in stories:
        sentences = [t for _, t in story]
        real, _, b1, b2 = observer_replay(sentences, BYSTANDER_ROOMS)
        truth = check(tomi.story_to_trace(story, "bystander.txt"), "strict-truthful")
        agents = sorted({t.split()[0] for t in sentences if not t.startswith("The ")})
        for o in real:
            f = ("in", o)
            assert truth.value((), f) == real[o]
            for a in agents:
                assert truth.value((a,), f) == b1.get((a, o)), (sentences, a, o)
                for b in agents:
                    if b != a:
                        assert truth.value((a, b), f) == b2.get((a, b, o)), (sentences, a, b, o)


def test_bystander_container_rooms_come_from_the_story():
    for story in distinct_stories(FIX / "bystander.txt"):
        rooms = tomi.container_rooms(story)
        assert rooms and rooms == {c: BYSTANDER_ROOMS[c] for c in rooms}, [t for _, t in story]


def _story(*sentences):
    return list(enumerate(sentences, start=1))


def test_issue_story_bystander_enters_just_before_the_statement():
    story = _story("Alice entered the kitchen.", "Bob entered the kitchen.", "Carol entered the garden.",
                   "The apple is in the box.", "Bob exited the kitchen.", "Alice moved the apple to the basket.")
    assert tomi.container_rooms(story) == {"box": "kitchen"}
    (st,) = [e for e in tomi.story_to_trace(story, "s") if e.kind == "statement"]
    assert st.room == "kitchen"


def test_container_room_rules():
    # 1. the container is a room of the story
    assert tomi.container_rooms(_story("Ann entered the hall.", "Ben entered the porch.",
                                       "The cat is in the porch.")) == {"porch": "porch"}
    # 2. an action on the container decides, even against the majority at the statement
    assert tomi.container_rooms(_story("Ann entered the hall.", "Ben entered the hall.", "Cy entered the porch.",
                                       "The hat is in the box.", "Cy moved the hat to the bag.")) == {"box": "porch"}
    # ... moving an object into the container counts too
    assert tomi.container_rooms(_story("Ann entered the hall.", "Ben entered the porch.", "The hat is in the box.",
                                       "Ben moved the hat to the bag.", "The cap is in the bag.")) == {
        "box": "porch", "bag": "porch"}
    # 3. nobody acts on it: the room with most agents; a tie goes to the room of the next move
    assert tomi.container_rooms(_story("Ann entered the hall.", "Ben entered the hall.", "Cy entered the porch.",
                                       "The hat is in the box.")) == {"box": "hall"}
    assert tomi.container_rooms(_story("Ann entered the hall.", "Ben entered the porch.", "The hat is in the box.",
                                       "The cap is in the bag.", "Ann moved the cap to the tin.")) == {
        "box": "hall", "bag": "hall"}
    # ... then to the tied room entered last
    assert tomi.container_rooms(_story("Ann entered the hall.", "Ben entered the porch.",
                                       "The hat is in the box.")) == {"box": "porch"}
    # 4. nobody in any room: the room entered last before, else the first entered after
    assert tomi.container_rooms(_story("Ann entered the hall.", "Ann exited the hall.", "The hat is in the box.",
                                       "Ben entered the porch.")) == {"box": "hall"}
    assert tomi.container_rooms(_story("The hat is in the box.", "Ben entered the porch.")) == {"box": "porch"}
    with pytest.raises(AdapterError, match=r"s:1: 'The hat is in the box.': no room is known for the box"):
        tomi.story_to_trace(_story("The hat is in the box.", "Ann likes the box"), "s")


def test_shared_sample_every_question_answered():
    d = shared_tomi()
    r = tomi.grade(d / "train_sample.txt", d / "train_sample.trace")
    assert r.questions and all(q.answer for q in r.questions)


def test_a_byte_order_mark_is_accepted(tmp_path):
    p = tmp_path / "s.txt"
    p.write_text("\ufeff1 Mary entered the kitchen.\n2 The apple is in the box.\n3 Where is the apple really?\tbox\t1\n",
                 encoding="utf-8")
    assert tomi.grade(p).summary()["agree"] == 1


@pytest.mark.parametrize("line", ["3 Where is the apple?\t\t1", "3 Where is the apple?\t \t1"])
def test_a_question_line_with_an_empty_answer_is_refused_by_the_reader(tmp_path, line):
    from belief.adapters.common import AdapterError
    from belief.adapters.tomi import read_examples

    path = tmp_path / "s.txt"
    path.write_text(f"1 Anne entered the kitchen.\n2 The apple is in the box.\n{line}\n")
    with pytest.raises(AdapterError, match=r"s\.txt:3: the question line has an empty answer field"):
        read_examples(path)
