import pytest

from belief.errors import BeliefError
from belief.grading.trivial import majority_answers, tom_rows_markdown, tom_table


def _rows():
    # type "fb": gold no x3, yes x1; the checker is always right, public_record right once
    return [
        {"type": "fb", "gold": "no", "answers": {"checker": "no", "public_record": "yes"}},
        {"type": "fb", "gold": "no", "answers": {"checker": "no", "public_record": "yes"}},
        {"type": "fb", "gold": "No", "answers": {"checker": "no", "public_record": "yes"}},
        {"type": "fb", "gold": "yes", "answers": {"checker": "yes", "public_record": "yes"}},
        {"type": "loc", "gold": "kitchen", "answers": {"checker": "kitchen", "public_record": "kitchen"}},
        {"type": "loc", "gold": "hall", "answers": {"checker": "hall"}},
    ]


def test_majority_is_per_type_and_stable():
    assert majority_answers(_rows()) == {"fb": "no", "loc": "hall"}  # tie 1-1 broken by text


def test_table_scores_answerers_and_flags_trivial_types():
    table = tom_table(_rows())
    fb = table["by_type"]["fb"]
    assert fb["checker"]["accuracy"] == 1.0
    assert fb["majority"]["accuracy"] == 0.75
    assert fb["public_record"]["accuracy"] == 0.25
    assert fb["tom"] is False and fb["trivial_best"] == 0.75 and fb["best_shortcut"] == "majority"  # > 0.65
    assert fb["n"] == 4 and fb["gold"] == {"no": 0.75, "yes": 0.25}
    assert fb["inverted"] == ["public_record"]  # right on 1 of 4 yes/no questions: its negation is a shortcut
    loc = table["by_type"]["loc"]
    assert loc["public_record"]["accuracy"] == 0.5  # missing answer counts as wrong
    assert table["overall"]["checker"]["accuracy"] == 1.0 and table["overall"]["checker"]["n"] == 6
    lo, hi = fb["checker"]["ci95"]
    assert lo < 1.0 and hi == pytest.approx(1.0)


def test_type_solved_by_a_shortcut_is_not_tom():
    rows = [{"type": "knows", "gold": "yes", "answers": {"checker": "yes"}} for _ in range(9)]
    rows.append({"type": "knows", "gold": "no", "answers": {"checker": "no"}})
    table = tom_table(rows)
    assert table["by_type"]["knows"]["tom"] is False
    assert "no (shortcut > 0.65)" in tom_rows_markdown(table)


def test_bad_rows_are_refused():
    with pytest.raises(BeliefError, match="no questions"):
        tom_table([])
    with pytest.raises(BeliefError, match="row 0 lacks"):
        tom_table([{"type": "x", "gold": "y"}])


def test_a_world_names_its_own_shortcuts():
    rows = [{"type": "jp", "gold": "a", "answers": {"agent": "a", "alone": "a"}} for _ in range(5)]
    assert tom_table(rows)["by_type"]["jp"]["tom"] is False  # majority alone already gets 100%
    rows = [{"type": "jp", "gold": g, "answers": {"agent": g, "alone": g}} for g in "abcde"]
    assert tom_table(rows)["by_type"]["jp"]["tom"] is True
    table = tom_table(rows, trivial=("alone",))
    assert table["by_type"]["jp"]["tom"] is False and "alone" in table["trivial"]


def test_an_answerer_that_answers_no_question_of_a_type_is_not_scored_on_it():
    rows = [{"type": "pot", "gold": "a", "answers": {"chef": "a", "public_record": "a"}},
            {"type": "intent", "gold": "x", "answers": {"chef": "y", "as_self": "x"}},
            {"type": "intent", "gold": "x", "answers": {"chef": "x", "as_self": "x"}}]
    table = tom_table(rows)
    assert "public_record" not in table["by_type"]["intent"] and "as_self" not in table["by_type"]["pot"]
    assert table["overall"]["public_record"] == {"accuracy": 1.0, "ci95": table["overall"]["public_record"]["ci95"],
                                                  "n": 1}
    assert table["overall"]["chef"]["n"] == 3 and table["overall"]["chef"]["accuracy"] == 2 / 3
    md = tom_rows_markdown(table)
    assert "| intent | 2 |" in md and "—" in md


def test_margin_over_the_best_shortcut_is_paired_and_clustered_by_episode():
    # 4 episodes of 10 balanced questions: the agent is right on 9, the best shortcut (reality) on 6
    rows = []
    for ep in range(4):
        for i in range(10):
            gold = "yes" if i % 2 else "no"
            rows.append({"type": "t", "gold": gold, "episode": ep,
                         "answers": {"agent": gold if i else ("no" if gold == "yes" else "yes"),
                                     "reality": gold if i < 6 else ("no" if gold == "yes" else "yes")}})
    table = tom_table(rows, headline="agent")
    entry = table["by_type"]["t"]
    assert entry["tom"] is True and entry["best_shortcut"] == "reality" and entry["trivial_best"] == 0.6
    m = entry["margin"]
    # hand-worked: per question 1-1 (i = 1..5), 0-1 (i = 0), 1-0 (i = 6..9): mean (0 * 5 - 1 + 4) / 10 = 0.3
    assert m["over"] == "reality" and m["mean"] == pytest.approx(0.3) and m["episodes"] == 4
    lo, hi = m["ci95"]
    assert lo == pytest.approx(hi) == pytest.approx(0.3)  # every episode alike: no spread between clusters
    assert "+0.300" in tom_rows_markdown(table)
    assert tom_table(rows)["by_type"]["t"]["margin"] is None  # no headline, no margin
