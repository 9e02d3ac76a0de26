import json
from pathlib import Path

import pytest

from belief.adapters import hitom
from belief.adapters.common import AdapterError, audit_entry

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "hitom"
SHARED = Path(__file__).resolve().parents[3] / "shared"


def shared_hitom() -> Path:
    d = SHARED / "samples" / "hitom"
    if not d.is_dir():
        pytest.skip("../shared/samples/hitom is not present beside the checkout")
    return d


def test_tree_counts_mc_and_cot_once():
    r = hitom.grade(FIX / "tree")
    s = r.summary()
    # 1 disagreement: No_Tell order_2, whose label follows a move Dan was absent for (the "unseen move"
    # class of HITOM_LEGACY_LABEL_BUGS; test_audit_of_a_wrong_label)
    assert s["total"] == 7 and s["agree"] == 6
    assert s["by_tell"] == {"No_Tell": [2, 3], "Tell": [4, 4]}
    assert s["by_type"]["order_3"] == [1, 1]
    sources = [q.source for q in r.questions]
    assert all("/CoT/" not in x for x in sources) and len(set(sources)) == 7
    assert [q.id for q in r.questions] == list(range(7))


def test_json_release_shape_matches_tree():
    a = hitom.grade(FIX / "tree").summary()
    b = hitom.grade(FIX / "mini.json").summary()
    assert a == b
    r = hitom.grade(FIX / "mini.json")
    (q,) = r.disagreements()
    assert q.source == 10 and q.prediction(True)["source"] == 10  # index in the JSON list


def test_messages_under_hitom_policy():
    r = hitom.grade(FIX / "tree")
    by_q = {q.question: q for q in r.questions}
    assert by_q["Where does Alice really think the apple is?"].answer == "blue_box"      # public claim, believer
    assert by_q["Where does Carol think Alice thinks the apple is?"].answer == "red_box"  # private tell
    strict = hitom.grade(FIX / "tree", policy="strict-truthful")
    s_by_q = {q.question: q for q in strict.questions}
    # under strict-truthful Bob's public claim is shared by everyone hearing it, Carol included
    assert s_by_q["Where does Carol think Alice thinks the apple is?"].answer == "blue_box"


def test_audit_of_a_wrong_label():
    r = hitom.grade(FIX / "tree")
    (q,) = r.disagreements()
    e = audit_entry(q)
    assert e["source"] == "No_Tell/MC/length_1/sample_1/order_2.txt"
    assert e["answer"] == "red_crate" and e["gold"] == "blue_crate"
    assert e["label_last_real"]["chain_agents_absent"] == ["Dan"]
    assert e["justification"]["not_followed"][0]["absent"] == ["Dan"]
    assert label_bug_class(e) == "unseen move"
    json.dumps(e)


def test_jsonl_and_list_shapes(tmp_path):
    data = json.loads((FIX / "mini.json").read_text())["data"]
    p = tmp_path / "items.jsonl"
    p.write_text("\n".join(json.dumps(d) for d in data) + "\n")
    assert hitom.grade(p).summary()["total"] == 7
    p2 = tmp_path / "items.json"
    p2.write_text(json.dumps(data))
    assert hitom.grade(p2).summary()["total"] == 7
    d = tmp_path / "dir"
    d.mkdir()
    (d / "sample.jsonl").write_text(p.read_text())
    assert hitom.grade(d).summary()["total"] == 7


def test_unknown_sentence_and_question(tmp_path):
    with pytest.raises(AdapterError, match=r"order_0.txt:4: unknown Hi-ToM sentence 'Alice painted the apple.'"):
        hitom.grade(FIX / "bad")
    t = (FIX / "tree/Tell/MC/length_1/sample_1/order_0.txt").read_text()
    p = tmp_path / "order_0.txt"
    p.write_text(t.replace("Where is the apple really?", "Who has the apple?"))
    with pytest.raises(AdapterError, match=r"order_0.txt:16: unknown Hi-ToM question"):
        hitom.grade(p)
    (tmp_path / "empty").mkdir()
    with pytest.raises(AdapterError, match="no order_J.txt"):
        hitom.grade(tmp_path / "empty")


def test_parse_question():
    assert hitom.parse_question("Where does A think B thinks C thinks D thinks the pear is?", "x") == (
        ("A", "B", "C", "D"), "pear")
    assert hitom.parse_question("Question: Where does A really think the pear is?", "x") == (("A",), "pear")


# The items of the shared legacy-generator sample whose label the strict semantics (hitom policy) do not give,
# by file, with the class of label bug each shows:
# * "first place" (5, all No_Tell): every agent of the chain saw the object moved, yet the label is the
#   container it started in, the value of no chain: the legacy generator (before its authors' "fix
#   permutation bug") updated higher-order beliefs for one order of the agents only;
# * "unseen move" (4, all Tell): the label is the container of a move that an agent of the chain did not
#   see (Lily left before Sophia's move; Hannah, Jacob and Owen before Abigail's).
HITOM_LEGACY_LABEL_BUGS = {
    "No_Tell/MC/length_1/sample_1/order_2.txt": "first place",
    "No_Tell/MC/length_1/sample_2/order_2.txt": "first place",
    "No_Tell/MC/length_1/sample_2/order_3.txt": "first place",
    "No_Tell/MC/length_1/sample_2/order_4.txt": "first place",
    "No_Tell/MC/length_3/sample_1/order_2.txt": "first place",
    "Tell/MC/length_2/sample_1/order_3.txt": "unseen move",
    "Tell/MC/length_2/sample_1/order_4.txt": "unseen move",
    "Tell/MC/length_3/sample_2/order_3.txt": "unseen move",
    "Tell/MC/length_3/sample_2/order_4.txt": "unseen move",
}


def label_bug_class(e: dict) -> str:
    """The class of a disagreement, from its audit entry (see HITOM_LEGACY_LABEL_BUGS)."""
    last = e["label_last_real"]
    if not e["label_matches"] and not last["chain_agents_absent"] and last["t"] == 1:
        return "first place"
    return "unseen move" if last["chain_agents_absent"] else "other"


@pytest.mark.parametrize("gen,agree,label_bugs", [
    ("current_generator", 30, {}),  # the fixed labeller follows strict observation + the hitom policy
    ("legacy_generator", 51, HITOM_LEGACY_LABEL_BUGS),  # 60 items, 9 label bugs, all of order 2 to 4
])
def test_shared_samples(gen, agree, label_bugs):
    d = shared_hitom() / gen
    tree = hitom.grade(d)
    jsonl = hitom.grade(d / "sample.jsonl")
    s = tree.summary()
    assert s["by_type"] == jsonl.summary()["by_type"]
    assert s["total"] - s["agree"] == len(label_bugs) and s["agree"] == agree
    for t in ("order_0", "order_1"):
        a, n = s["by_type"][t]
        assert a == n and n > 0
    audits = [audit_entry(q) for q in tree.disagreements()]
    assert {e["source"]: label_bug_class(e) for e in audits} == label_bugs
    for e in audits:
        assert e["justification"]["text"] and e["note"]


@pytest.mark.parametrize("order,ok", [(2, True), ("2", True), (None, True), ("two", False), (1.5, False),
                                      (-1, False), (True, False), ([2], False)])
def test_question_order_must_be_a_non_negative_integer(tmp_path, order, ok):
    item = {"story": ["A entered the r."], "question": "Where is the x really?", "answer": "b"}
    if order is not None:
        item["question_order"] = order
    p = tmp_path / "h.json"
    p.write_text(json.dumps({"data": [item]}))
    if ok:
        assert hitom.read_items(p)[0].order == (int(order) if order is not None else None)
    else:
        with pytest.raises(AdapterError, match="question_order must be a non-negative integer"):
            hitom.read_items(p)


def test_hostile_json_lines_are_adapter_errors_naming_the_line(tmp_path):
    p = tmp_path / "h.jsonl"
    p.write_text('{"story": [], "question": "q", "answer": "a"}\n' + "[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(AdapterError, match="h.jsonl:2: invalid JSON: nested too deeply"):
        hitom.read_items(p)
