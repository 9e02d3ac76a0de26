"""The selected set of the maze games under the project's rules (partial view): each question's gold is
checked against the checker run afresh on the written trace (not the selector's incremental one), and the set
asks only where the panel of shortcuts fails."""

import json

import pytest

from belief.app.runners.maze import MazeConfig, play_episode
from belief.grading.questions import gold_answer, question_from_dict
from belief.truth.checker import check
from belief.truth.trace import Trace


def _files(r):
    out = {}
    for name, text in r["_files"].items():
        out[name.split(".")[-2]] = text
    return out


@pytest.mark.parametrize("game", ["escape", "capture"])
def test_selected_gold_is_the_checker_on_the_written_trace(game):
    r = play_episode(MazeConfig(game=game, rules="project", ask_every=0, tom_rows=True, files=True), 7001)
    files = _files(r)
    truth = check(Trace.loads(files["trace"]))
    questions = [question_from_dict(json.loads(line))[0] for line in files["questions"].splitlines()]
    rows = [row for row in r["tom_rows"] if row.get("set") == "selected"]
    assert len(rows) == len(questions) > 2
    for q, row in zip(questions, rows):
        assert row["type"] == q.template
        assert row["gold"] == gold_answer(truth, q), q
        # asked where ToM is needed: some shortcut of the panel gets it wrong, or a phenomenon is named
        assert q.phenomenon or any(row["answers"][s] != row["gold"]
                                   for s in ("reality", "as_self", "depth_collapse", "public_record"))


def test_source_rules_full_view_select_almost_nothing():
    """Everything is in view under the source's rules: no private knowledge, so (almost) no question needs
    ToM (every chain knows what every other does)."""
    r = play_episode(MazeConfig(game="escape", rules="source", ask_every=0, tom_rows=True), 7001)
    rows = [row for row in r.get("tom_rows", []) if row.get("set") == "selected"]
    assert len(rows) <= 2


def test_every_active_player_is_asked_after_each_step(monkeypatch):
    """After each step the selected set asks both players (the one who acted first), as the other worlds ask
    every agent at a question moment: Alice acts first in a round, so the steps' askings alternate
    (alice, bob), (bob, alice), ... each pair at the same point of the trace."""
    from belief.app.runners import maze as runner

    calls = []
    real = runner.selected_set

    def spy(*args, **kwargs):
        s = real(*args, **kwargs)
        ask = s.ask

        def asking(you, **kw):
            calls.append((len(s.stream.tracker.trace), you))
            return ask(you, **kw)

        s.ask = asking
        return s

    monkeypatch.setattr(runner, "selected_set", spy)
    r = play_episode(MazeConfig(game="capture", rules="project", ask_every=0, tom_rows=True), 7002)
    assert len(calls) >= 8 and len(calls) % 2 == 0
    for k in range(0, len(calls), 2):
        (t1, first), (t2, second) = calls[k], calls[k + 1]
        assert t1 == t2 and first != second
        assert first == ("alice", "bob")[(k // 2) % 2]  # the actor first
    assert r["end_reason"] == "captured"  # both players stay active to the end: every step asks both
