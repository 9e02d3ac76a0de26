"""The story generator (belief.stories): valid, deterministic stories whose English reads back as the same
events, and questions whose gold is the checker's on the written trace, where ToM is needed."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belief import Tracker
from belief.grading.questions import gold_answer
from belief.logic.policies import get_policy
from belief.stories.generator import FEATURES, StoryConfig, StoryError, generate_story
from belief.stories.questions import KNOWS, generate_set
from belief.stories.text import StoryTextError, parse_sentence, parse_story, question_text
from belief.truth.checker import check
from belief.truth.index import IndexBuilder
from belief.truth.trace import Trace, parse_event

CONFIGS = st.builds(StoryConfig, depth=st.integers(1, 4), people=st.sampled_from([(2, 2), (2, 6), (4, 6), (6, 6)]),
                    features=st.sets(st.sampled_from(FEATURES)).map(lambda s: tuple(sorted(s))))


def _canonical(events) -> list[str]:
    return [json.dumps(parse_event(e).model_dump(mode="json", exclude_none=True), sort_keys=True) for e in events]


@settings(max_examples=60)
@given(seed=st.integers(0, 10**6), index=st.integers(0, 10**4), config=CONFIGS)
def test_the_text_reads_back_as_the_events(seed, index, config):
    story = generate_story(seed, index, config)
    assert len(story.sentences) == len(story.events)  # one sentence per event
    check(story.trace())  # valid for the checker
    assert _canonical(parse_story(story.text)) == _canonical(story.events)
    for sentence, event in zip(story.sentences, story.events):
        assert _canonical([parse_sentence(sentence)]) == _canonical([event])


@settings(max_examples=15)
@given(seed=st.integers(0, 10**6), config=CONFIGS)
def test_every_gold_is_the_checkers_on_the_written_trace(seed, config):
    story_set = generate_set(6, seed, config)
    for story in story_set.stories:
        written = Trace.loads(story.trace().dumps())  # the file's content, read back
        truth = check(written)
        for c in story_set.questions[story.id]:
            q = c.question
            assert gold_answer(truth, q) == c.gold
            assert q.order <= config.depth and q.category and q.text == question_text(q.kind, q.chain, q.fluent[1])
            if q.kind == "value" and q.chain:  # ToM is needed: differs from reality or an agent's own belief
                own = [truth.value((q.chain[0],), q.fluent), truth.value((q.chain[-1],), q.fluent)]
                assert c.gold != truth.reality(q.fluent) or c.gold != own[0] or c.gold != own[1]


def test_a_set_is_deterministic_and_story_i_does_not_depend_on_n():
    a, b = generate_set(12, 7), generate_set(12, 7)
    assert [s.events for s in a.stories] == [s.events for s in b.stories]
    assert {k: [c.question for c in v] for k, v in a.questions.items()} == \
        {k: [c.question for c in v] for k, v in b.questions.items()}
    assert generate_story(7, 3).events == generate_set(5, 7).stories[3].events
    assert generate_story(8, 3).events != generate_story(7, 3).events


def test_knows_questions_are_balanced_and_phenomena_named():
    s = generate_set(60, 2)
    counts = s.counts()
    assert counts["gold_yes_no"]["yes"] == counts["gold_yes_no"]["no"] > 10
    assert {"false_belief", "divergent_belief", "message_borne", "secret_observation"} <= set(counts["phenomenon"])
    assert set(counts["order"]) == {"0", "1", "2", "3", "4"}
    knows = [c for v in s.questions.values() for c in v if c.question.template == KNOWS]
    assert {c.gold for c in knows} == {"yes", "no"}


def test_phenomena_restrict_the_actions():
    config = StoryConfig(features=("peek",))
    for i in range(30):
        for e in generate_story(0, i, config).events:
            assert e["kind"] not in ("tell", "announce")
            assert not ({"inattentive", "opaque", "quiet", "overheard_by"} & set(e))


@pytest.mark.parametrize("kwargs", [{"depth": 5}, {"people": (1, 3)}, {"people": (3, 7)}, {"features": ("telepathy",)}])
def test_bad_settings_are_one_error(kwargs):
    with pytest.raises(StoryError):
        StoryConfig(**kwargs)


def test_a_foreign_sentence_is_refused():
    with pytest.raises(StoryTextError, match="not a sentence"):
        parse_sentence("Anne juggled the apples.")


def _room_of(story, place):
    """Where a place is, from the generator's own map of rooms and containers (not the checker's)."""
    return place if place in story.rooms else next(r for r, cs in story.rooms.items() if place in cs)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), index=st.integers(0, 10**4))
def test_no_room_is_taken_for_a_container_and_objects_are_seen_where_they_are(seed, index):
    """Stories declare their rooms (meta room_names), so a move into a room nobody has entered yet is a room move:
    no room name becomes a container, and each object is shown to arrivals in the room it really lies in."""
    story = generate_story(seed, index, StoryConfig(features=("room_move", "tell", "peek")))
    trace = story.trace()
    assert trace.meta["room_names"] == list(story.rooms)
    replay = IndexBuilder(trace, get_policy("strict-truthful")).run()
    assert not set(replay.container_room) & set(story.rooms)
    for c, room in replay.container_room.items():
        assert room == _room_of(story, c), c
    for o in story.objects:
        place = replay.reality[("in", o)]
        assert replay.fluent_room[("in", o)] == _room_of(story, place), (o, place)


def test_stories_move_objects_into_rooms_nobody_entered_yet():
    """The case the declaration is for happens (so the property above is not vacuous)."""
    found = 0
    for i in range(60):
        entered: set = set()
        story = generate_story(0, i, StoryConfig(features=("room_move",)))
        rooms = set(story.rooms)
        for e in story.events:
            if e["kind"] in ("enter", "statement"):
                entered.add(e["room"])
            elif e["kind"] == "move" and e["to"] not in entered and e["to"] in rooms:
                found += 1
    assert found >= 5


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), index=st.integers(0, 10**4))
def test_the_tracker_on_a_story_equals_the_batch_check_of_every_prefix(seed, index):
    story = generate_story(seed, index, StoryConfig(features=("room_move", "tell", "peek", "distracted")))
    meta = story.trace().meta
    tracker = Tracker(meta=meta)
    for k, ev in enumerate(story.events):
        tracker.append(ev)
        batch = check(story.trace(story.events[:k + 1]))
        for chain in [(a,) for a in batch.agents] + [(a, b) for a in batch.agents for b in batch.agents if a != b]:
            for o in story.objects:
                assert tracker.value(chain, ("in", o)) == batch.value(chain, ("in", o)), (k, chain, o)
