"""The selected set of overcooked_v0 under partial view: gold checked against the checker run afresh on the
written trace; the intents (the runner's record of each chef's plan) are never asked about."""

import json

from belief.app.runners.overcooked import OvercookedConfig, play_episode
from belief.grading.questions import gold_answer, question_from_dict
from belief.truth.checker import check
from belief.truth.trace import Trace


def test_selected_gold_is_the_checker_on_the_written_trace():
    r = play_episode(OvercookedConfig(layout="cramped_room", horizon=40, fov=1, ask_every=10, files=True), 2)
    files = {name.split(".")[-2]: text for name, text in r["_files"].items()}
    truth = check(Trace.loads(files["trace"]))
    rows = [row for row in r["tom_rows"] if row.get("set") == "selected"]
    ids = {row["id"] for row in rows}
    # the file also holds the episode's other questions (pot, ready, intent): the selected ones by id
    questions = [q for q in (question_from_dict(json.loads(line))[0] for line in files["questions"].splitlines())
                 if q.id in ids]
    assert len(rows) == len(questions) > 0
    for q, row in zip(questions, rows):
        assert q.fluent is not None and q.fluent[0] != "intent"
        assert row["gold"] == gold_answer(truth, q), q
