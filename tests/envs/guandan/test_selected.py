"""The selected set of guandan_v0: gold worked out by hand from the game (who held what, what was played),
never by the checker that produced it; the planners answer it from their own records."""

from belief.app.runners.guandan import GuandanConfig, play_game
from belief.envs.guandan.tom import is_play
from belief.grading.questions import parse_fluent


def _game(seed=4):
    return play_game(GuandanConfig("tom", "rule", files=True), seed, keep_trace=True)


def _played_by(trace, t):
    return {k for ev in trace if is_play(ev) and ev.t <= t for k in ev.params["cards"]}


def test_second_order_gold_is_the_hand_rule():
    """"Are you aware that X knows whether H holds card K?" after a play, one deal, free passes: a player sees
    its own hand (everyone knows it does) and every play, nothing else; so the asker knows that X knows the
    holding exactly when H is X or the card has been played."""
    import json

    r = _game()
    trace = r["_trace"]
    questions = [json.loads(line) for name, text in r["_files"].items() if name.endswith("questions.jsonl")
                 for line in text.splitlines()]
    second = [q for q in questions if len(q["chain"]) == 2]
    assert len(second) >= 3
    rows = r["selected_rows"]
    assert len(rows) == len(questions)
    for q, row in zip(questions, rows):
        if len(q["chain"]) != 2:
            continue
        _, card, holder = parse_fluent(q["fluent"])
        expected = holder == q["chain"][1] or int(card.split("_")[1]) in _played_by(trace, q["time"])
        assert row["gold"] == ("yes" if expected else "no"), q
        assert row["answers"]["planner"] == row["gold"], q  # the planner answers from its own record


def test_selected_set_is_balanced_and_beats_no_shortcut_by_construction():
    rows = _game(7)["selected_rows"]
    golds = [r["gold"] for r in rows]
    assert rows and max(golds.count("yes"), golds.count("no")) <= 0.6 * len(rows) + 1
    for name in ("reality", "as_self", "depth_collapse", "public_record"):
        assert sum(r["answers"][name] == r["gold"] for r in rows) <= 0.6 * len(rows) + 1
