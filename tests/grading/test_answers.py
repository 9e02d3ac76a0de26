"""Table-driven tests of the free-text reader (belief.grading.answers).

The tables are generated: subjects x verb phrases x negations x hedges x reasons x answer particles, plus
idioms and reasoning paragraphs. Each generated phrasing carries the polarity it was built with, so the
expectations follow from the construction, not from a list of memorised sentences.
"""

import itertools

import pytest

from belief.grading.answers import HEDGE, NO, YES, read_place, read_verdict, read_yes_no

SUBJECTS = ["Bravo", "He", "Charlie", "My teammate", "she"]
FACTS = ["the sequence of Bomb 3", "the contents of Room 5", "that Bomb 2 has changed", "that I know the contents of Room 8"]
# (positive verb phrase, its negations): every negation means "no"
VERBS = [
    ("knows", ["does not know", "doesn't know", "doesnt know", "never knew", "cannot know", "couldn't know",
               "wouldn't know"]),
    ("is aware of", ["is not aware of", "isn't aware of", "is unaware of", "is oblivious to", "is in the dark about"]),
    ("has seen", ["has not seen", "hasn't seen", "never saw", "could not have seen", "did not see"]),
    ("was told", ["was not told", "wasn't told", "was never told"]),
    ("learned", ["did not learn", "never learned", "has yet to learn", "failed to learn"]),
    ("found out", ["didn't find out", "never found out"]),
]
# frames around a clause: (template, effect) where effect is keep / flip / hedge
FRAMES = [
    ("{c}", "keep"), ("I think {c}", "keep"), ("I believe {c}", "keep"), ("Probably {c}", "keep"),
    ("It seems {c}", "keep"), ("Clearly, {c}", "keep"), ("I'm fairly sure {c}", "keep"), ("I'd say {c}", "keep"),
    ("I don't think {c}", "flip"), ("It is unlikely that {c}", "flip"), ("I doubt that {c}", "flip"),
    ("There is no way {c}", "flip"), ("It is impossible that {c}", "flip"), ("It's not true that {c}", "flip"),
    ("Maybe {c}", "hedge"), ("Perhaps {c}", "hedge"), ("It might be that {c}", "hedge"),
    ("I'm not sure whether {c}", "hedge"), ("Possibly {c}", "hedge"),
]
REASONS = ["", " because he was in the room", " since nobody told him otherwise", " because he never entered Room 5",
           ", as he wasn't there"]


def _flip(v):
    return {YES: NO, NO: YES}[v]


def _clauses():
    for (pos, negs), subject, fact in itertools.product(VERBS, SUBJECTS, FACTS):
        yield f"{subject} {pos} {fact}", YES
        for neg in negs:
            yield f"{subject} {neg} {fact}", NO


def _framed():
    rows = []
    for i, (clause, v) in enumerate(_clauses()):
        frame, effect = FRAMES[i % len(FRAMES)]
        reason = REASONS[i % len(REASONS)]
        text = frame.format(c=clause[0].lower() + clause[1:] if frame != "{c}" else clause) + reason + "."
        rows.append((text, {"keep": v, "flip": _flip(v) if v in (YES, NO) else v, "hedge": HEDGE}[effect]))
    return rows


def _particles():
    """'No, Bravo does not know ...' / 'Yes, he knows ...' (the particle agrees with the clause)."""
    rows = []
    for i, (clause, v) in enumerate(_clauses()):
        if i % 3:
            continue
        particle = {YES: ["Yes", "Yeah", "Sure", "Of course", "Definitely", "Certainly"],
                    NO: ["No", "Nope", "Definitely not", "Of course not", "Certainly not", "Not at all"]}[v]
        rows.append((f"{particle[i % 6]}, {clause[0].lower() + clause[1:]}.", v))
    return rows


def _paragraphs():
    """Reasoning first, verdict in the last sentence."""
    openings = ["Alpha inspected the bomb while Bravo was in Room 0.", "Let me think about who was present.",
                "Bravo moved to Room 3 in round 2, and Alpha was not there then.",
                "Nobody announced anything about it in the last round."]
    endings = [("So Bravo knows it.", YES), ("Therefore, Bravo does not know it.", NO), ("Thus he is unaware of it.", NO),
               ("Hence Bravo must have seen it.", YES), ("So the answer is no.", NO), ("In conclusion, yes.", YES),
               ("So, probably not.", NO), ("That means he couldn't know.", NO), ("Overall, I guess so.", YES)]
    rows = []
    for i, (opening, (ending, v)) in enumerate(itertools.product(openings, endings)):
        middle = ["", " He was busy elsewhere.", " The sequence was only shown to Alpha."][i % 3]
        rows.append((f"{opening}{middle} {ending}", v))
    return rows


IDIOMS = [
    # read as yes although they mean no (issue 11), and the other way round
    ("Definitely not.", NO), ("Certainly not.", NO), ("Of course not.", NO), ("Absolutely not.", NO),
    ("Indeed not.", NO), ("Bravo couldn't know that", NO), ("wouldn't know", NO),
    ("It's impossible for Bravo to know", NO), ("It is unlikely that Bravo is aware", NO),
    ("knows nothing about it", NO), ("Not that I know of", NO), ("No doubt about it", YES),
    ("Probably not", NO), ("Unlikely", NO), ("Sure", YES), ("I guess so", YES),
    ("Very unlikely.", NO), ("Highly likely.", YES), ("Not likely.", NO), ("Surely not!", NO), ("No way.", NO),
    ("Without a doubt.", YES), ("I have no doubt he does.", YES), ("I don't doubt it.", YES), ("I doubt it.", NO),
    ("Doubtful.", NO), ("Not to my knowledge.", NO), ("I'm afraid not.", NO), ("I suppose so.", YES),
    ("I think not.", NO), ("I'd say yes.", YES), ("I would say no.", NO), ("Not really.", NO), ("Yep!", YES),
    ("Nah.", NO), ("Absolutely.", YES), ("Of course.", YES), ("Correct.", YES), ("False.", NO), ("True", YES),
    ("He does.", YES), ("She doesn't.", NO), ("Bravo is.", YES), ("Bravo isn't.", NO), ("They do not.", NO),
    ("Bravo has no idea.", NO), ("Bravo has no clue about it.", NO), ("Nobody told him.", NO),
    ("No one informed Bravo of it.", NO), ("Bravo remains ignorant of the sequence.", NO),
    ("It is not impossible that Bravo knows.", YES), ("Bravo is not unaware of it.", YES),
    ("Bravo could not possibly know.", NO), ("There's little doubt that he knows.", YES),
    ("Bravo knows that Alpha did not defuse it.", YES), ("Bravo is aware that nobody moved it.", YES),
    ("Although Bravo wasn't there, Alpha told him, so he knows.", YES),
    ("Bravo was there, but he didn't see the bomb.", NO),
    ("Bravo didn't see it himself, but Alpha told him, so he knows.", YES),
    ("Since Bravo left early, he doesn't know.", NO), ("As far as I can tell, Bravo knows.", YES),
    ("The answer is no.", NO), ("Final answer: yes", YES), ("**Answer:** No", NO), ("Answer - yes.", YES),
    ("Does Bravo know? No.", NO), ("Yes. Bravo saw Alpha inspect it.", YES),
    ("No. Bravo left the room, so he didn't see the change.", NO),
    ("Bravo did not see Alpha inspect the bomb. However, Alpha told him the sequence, so Bravo knows it.", YES),
    ("It's possible, but unlikely.", NO),
    ("By no means.", NO), ("Not in the slightest.", NO), ("Not a chance.", NO), ("Negative.", NO),
    ("Affirmative.", YES), ("That is not correct.", NO), ("He doesn't know, no.", NO), ("Not to my knowledge, no.", NO),
    ("Neither Bravo nor Charlie knows.", NO), ("Bravo is none the wiser.", NO), ("I would assume not.", NO),
    ("I'd assume so.", YES), ("Bravo is unlikely to know.", NO), ("There is no reason to think Bravo knows.", NO),
    ("Certainly, Bravo does not know.", NO), ("Indeed he does not.", NO), ("Of course he doesn't!", NO),
    ("Bravo wasn't in the room, so no.", NO), ("He was there the whole time, so he saw it.", YES),
    ("Given that Bravo was absent, he cannot know.", NO), ("Alpha didn't tell Bravo.", NO), ("I reckon not.", NO),
    ("I can't tell.", HEDGE), ("It's unclear.", HEDGE), ("Bravo could have seen it.", HEDGE),
    # unreadable: hedges, abstentions, contradictions
    ("Maybe.", HEDGE), ("Perhaps.", HEDGE), ("Possibly.", HEDGE), ("Hard to say.", HEDGE), ("It depends.", HEDGE),
    ("I'm not sure.", HEDGE), ("Not sure.", HEDGE), ("Yes and no.", HEDGE), ("Bravo might know.", HEDGE),
    ("I don't know.", HEDGE), ("No idea.", HEDGE), ("Who knows?", None), ("", None), ("The weather is nice.", None),
]


TABLE = _framed() + _particles() + _paragraphs() + IDIOMS


def test_the_table_is_large():
    assert len(TABLE) > 300
    assert {v for _, v in TABLE} >= {YES, NO, HEDGE}


@pytest.mark.parametrize("text,expected", TABLE)
def test_verdict(text, expected):
    assert read_verdict(text) == expected


@pytest.mark.parametrize("text,expected", [
    ("I don't know.", False), ("I have no idea.", False), ("No idea.", False), ("I do not know the contents of Room 3.", False),
    ("I know.", True), ("I don't know whether Bravo knows.", False), ("I'm not sure.", None)])
def test_asked_about_oneself_ignorance_is_a_no(text, expected):
    """'Do you know F?' -- 'I don't know' answers the question."""
    assert read_yes_no(text, about_self=True) is expected


def test_bool_and_none():
    assert read_yes_no(True) is True and read_yes_no(False) is False and read_yes_no(None) is None


PLACES = ["basket", "box", "green_bucket", "blue_bucket", "room_5"]


@pytest.mark.parametrize("text,expected", [
    ("The basket.", "basket"), ("basket", "basket"), ("In the box", "box"), ("green bucket", "green_bucket"),
    ("Sally thinks the marble is in the basket.", "basket"), ("It's in the green bucket, not the blue bucket.", "green_bucket"),
    ("Not in the box but in the basket.", "basket"), ("She believes it's in the basket, although it was moved to the box.", "basket"),
    ("Anne left before the marble was moved to the box. So she still thinks it is in the basket.", "basket"),
    ("Answer: Room 5", "room_5"), ("Bravo doesn't know where it is.", "unknown"), ("Bravo has no idea where the apple is.", "unknown"),
    ("It is nowhere.", "nowhere"), ("I don't know.", None), ("Somewhere in the house.", None), ("", None),
    ("Rather than the box, he would look in the basket.", "basket"), ("The apple was moved from the basket to the box.", "box"),
])
def test_place(text, expected):
    assert read_place(text, PLACES) == expected


def test_place_about_oneself():
    assert read_place("I don't know.", PLACES, about_self=True) == "unknown"
