"""The reader on model-style answers (tests/fixtures/reader/answers.jsonl, built by build.py there): belief vs
reality contrasts, negations, hedges, answer prefixes and explanations after the answer, each with the
reading a person gives it. The reader agrees on every one (no documented exceptions)."""

import json
from collections import Counter
from pathlib import Path

import pytest

from belief.grading.answers import read_place, read_verdict, read_yes_no
from belief.grading.questions import Question
from belief.grading.report import read_answer

SET = Path(__file__).resolve().parents[1] / "fixtures" / "reader" / "answers.jsonl"
ROWS = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines()]
CATEGORIES = ("contrast", "negation", "hedge", "prefix", "explanation")


def _reading(row):
    if row["kind"] == "place":
        return read_place(row["text"], row["candidates"], chain=row["chain"], about_self=row["about_self"])
    got = read_yes_no(row["text"], about_self=row["about_self"])
    return None if got is None else ("yes" if got else "no")


def test_the_set_is_large_and_varied():
    counts = Counter(r["category"] for r in ROWS)
    assert set(counts) == set(CATEGORIES) and min(counts.values()) >= 200
    assert {r["kind"] for r in ROWS} == {"place", "yes_no"} and None in {r["expected"] for r in ROWS}
    assert len({r["id"] for r in ROWS}) == len(ROWS)


def test_agreement_is_total():
    wrong = [(r["id"], r["text"], r["expected"], _reading(r)) for r in ROWS if _reading(r) != r["expected"]]
    assert not wrong, f"{len(wrong)}/{len(ROWS)} read differently, e.g. {wrong[:5]}"


@pytest.mark.parametrize("text,chain,expected", [
    ("It's really in the lunchbox, but Ben believes it's in the jar.", ["Ben"], "jar"),
    ("It's really in the lunchbox, but Ben believes it's in the jar.", [], "lunchbox"),
    ("Ben doesn't think it's in the lunchbox; he thinks it's in the jar.", ["Ben"], "jar"),
    ("Maybe the jar.", ["Ben"], None), ("Not sure - the jar or the lunchbox.", ["Ben"], None),
    ("Anne knows it's in the lunchbox, but Ben thinks it's in the jar.", ["Ben"], "jar"),
    ("Anne knows it's in the lunchbox, but Ben thinks it's in the jar.", ["Anne"], "lunchbox"),
    ("Ben believes it's in the lunchbox, but Anne thinks Ben believes it's in the jar.", ["Anne", "Ben"], "jar"),
])
def test_the_issue_examples(text, chain, expected):
    assert read_place(text, ["lunchbox", "jar"], chain=chain) == expected


def test_the_issue_yes_no_examples():
    assert read_verdict("The answer is: No") == "no"
    assert read_yes_no("He wouldn't, he was sleeping.") is False


def test_grading_passes_the_chain():
    """`belief grade` reads a value answer against the question's chain (belief or reality)."""
    text = "It's really in the lunchbox, but Ben believes it's in the jar."
    belief = Question(id="1", kind="value", chain=("Ben",), fluent=("in", "toy"))
    reality = Question(id="2", kind="value", chain=(), fluent=("in", "toy"))
    assert read_answer(belief, text, ["jar", "lunchbox"]) == "jar"
    assert read_answer(reality, text, ["jar", "lunchbox"]) == "lunchbox"
