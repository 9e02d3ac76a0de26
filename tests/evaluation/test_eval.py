"""`belief eval` through the real openai client against the scripted loopback server (belief.testing.llm_server):
a model answering the truth scores 100%, one answering reality scores as the reality shortcut, garbage and
timeouts are reported (never a crash), kill -9 then --resume gives byte-identical results; the built-in
answerers need no network; no endpoint is one clear error line."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from belief.app.cli import app
from belief.app.evaluation.baselines import answerers
from belief.app.evaluation.datasets import load_items
from belief.app.evaluation.stories_dir import config_options, write_story_set
from belief.stories.generator import StoryConfig
from belief.stories.questions import generate_set
from belief.stories.text import parse_sentence
from belief.testing.llm_server import FakeOpenAI, last_user_text

runner = CliRunner()
FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures")


@pytest.fixture(scope="module")
def stories(tmp_path_factory):
    out = tmp_path_factory.mktemp("stories") / "set"
    config = StoryConfig(depth=3)
    write_story_set(generate_set(6, 11, config), out, config_options(config, 6, 11, 2))
    return out


def _scripted(path, answerer: str):
    """A responder that answers each prompt as the built-in ``answerer`` would (keyed by the user message)."""
    _, items = load_items(path)
    fn = answerers(items)[answerer]
    by_prompt = {}
    for it in items:
        by_prompt[f"Story:\n{it.text.strip()}\n\nQuestion: {it.prompt_question}\nAnswer:"] = fn(it)
    return lambda request: by_prompt.get(last_user_text(request), "no idea, sorry")


def _eval(*args):
    r = runner.invoke(app, ["eval", *map(str, args), "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1, r.stdout  # --json: one JSON line, nothing else on stdout
    return json.loads(lines[0])


def test_builtin_answerers_need_no_network(stories):
    ceiling = _eval(stories, "--model", "checker")
    assert ceiling["accuracy"] == 1.0 and ceiling["unreadable"] == 0 and ceiling["questions"] > 10
    shortcut = _eval(stories, "--model", "reality")
    assert shortcut["accuracy"] == ceiling["baselines"]["reality"]["accuracy"] < 1.0
    assert set(ceiling["baselines"]) == {"checker", "reality", "as_self", "depth_collapse", "majority", "public_record",
                                        "first_value"}
    assert ceiling["baselines"]["checker"]["accuracy"] == 1.0
    for key in ("by_order", "by_phenomenon", "by_template"):
        assert all(0 <= g["ci95"][0] <= g["accuracy"] <= g["ci95"][1] <= 1 for g in ceiling[key].values())


def test_no_endpoint_is_one_line(stories):
    r = runner.invoke(app, ["eval", str(stories)])
    assert r.exit_code == 1 and "no model endpoint configured" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["eval", str(stories), "--model", "checker", "--mode", "psychic"])
    assert r.exit_code == 1 and "--mode" in r.output


def test_a_model_answering_the_truth_scores_100(stories, tmp_path):
    with FakeOpenAI(responder=_scripted(stories, "checker")) as srv:
        s = _eval(stories, "--base-url", srv.base_url, "--model", "fake", "--out", tmp_path / "run",
                  "--concurrency", "3")
    assert s["accuracy"] == 1.0 and s["errors"] == 0 and s["tokens"]["prompt"] > 0
    assert s["latency_s"]["requests"] == s["questions"]
    rows = [json.loads(x) for x in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert len(rows) == s["questions"] and all(r["correct"] for r in rows)
    assert (tmp_path / "run" / "results.csv").read_text().startswith("episode,id,order,")


def test_a_model_answering_reality_scores_as_the_reality_shortcut(stories):
    with FakeOpenAI(responder=_scripted(stories, "reality")) as srv:
        s = _eval(stories, "--base-url", srv.base_url, "--model", "fake")
    assert s["accuracy"] == s["baselines"]["reality"]["accuracy"]
    assert s["by_order"] == s["baselines"]["reality"]["by_order"]


def test_garbage_and_timeouts_are_reported(stories):
    calls = {"n": 0}
    truth = _scripted(stories, "checker")

    def flaky(request):
        calls["n"] += 1
        k = calls["n"] % 4
        if k == 1:
            return {"delay": 3}  # longer than --timeout: a timeout
        if k == 2:
            return {"raw": "{not json", "status": 200}
        if k == 3:
            return "ffff %%% 12"
        return truth(request)

    with FakeOpenAI(responder=flaky) as srv:
        s = _eval(stories, "--base-url", srv.base_url, "--model", "fake", "--timeout", "0.5", "--max-retries", "0",
                  "--concurrency", "1")
    assert s["errors"] > 0 and s["unreadable"] > 0 and 0 < s["accuracy"] < 1


def test_tomi_grades_against_labels_and_truth(tmp_path):
    s = _eval(os.path.join(FIXTURES, "tomi", "mini.txt"), "--model", "checker")
    labels = s["labels"]
    assert s["accuracy"] == 1.0 and labels["accuracy_vs_truth"]["accuracy"] == 1.0
    assert labels["label_differs_from_truth"] == len(labels["differ"])
    assert labels["accuracy_vs_labels"]["correct"] == labels["questions"] - labels["label_differs_from_truth"]


def _cli(*args):
    return [sys.executable, "-m", "belief", "eval", *map(str, args), "--no-progress"]


def test_kill_then_resume_is_byte_identical(stories, tmp_path):
    slow = _scripted(stories, "checker")
    with FakeOpenAI(responder=lambda req: {"content": slow(req), "delay": 0.05}) as srv:
        common = [stories, "--base-url", srv.base_url, "--model", "fake", "--concurrency", "1"]
        _eval(*common, "--out", tmp_path / "whole")
        proc = subprocess.Popen(_cli(*common, "--out", tmp_path / "cut"), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        journal = tmp_path / "cut" / "journal.jsonl"
        deadline = time.time() + 60
        while time.time() < deadline and (not journal.exists() or len(journal.read_text().splitlines()) < 5):
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert not (tmp_path / "cut" / "results.jsonl").exists()
        asked_before = srv.count
        resumed = _eval(*common, "--out", tmp_path / "cut", "--resume")
        assert srv.count - asked_before < resumed["questions"]  # only what was missing was asked again
    for name in ("results.jsonl", "results.csv", "summary.json"):
        assert (tmp_path / "cut" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name


# --- tracker mode -----------------------------------------------------------------------------------------
def _flat(d: dict) -> dict:
    """A trace-format event as the flat record the tracker asks the model for."""
    d = dict(d)
    if d["kind"] == "statement":
        d["object"] = d.pop("subject")[0]
    if d["kind"] in ("tell", "announce"):
        (fact,) = d.pop("content")
        d["object"], d["value"] = fact["subject"][0], fact["value"]
    return d


def _translator(wrong_every: int = 0):
    """A scripted translator returning the gold events of each sentence (the rule translator's reading);
    with ``wrong_every`` it names an invented container in every n-th reply (refused by the grounding check)."""
    calls = {"n": 0}

    def respond(request):
        calls["n"] += 1
        sentence = re.search(r"Sentence: (.*)\n", last_user_text(request)).group(1)
        event = _flat(parse_sentence(sentence))
        if wrong_every and event["kind"] == "move":
            event["to"] = "teapot"  # not in the sentence: every attempt is refused
        return {"json": {"events": [event]}}

    return respond


def test_tracker_with_the_gold_translation_equals_the_checker(stories, tmp_path):
    with FakeOpenAI(responder=_translator()) as srv:
        s = _eval(stories, "--mode", "tracker", "--base-url", srv.base_url, "--model", "fake",
                  "--out", tmp_path / "tracker")
        requests = srv.count
    assert s["latency_s"]["requests"] == requests > 0  # every translation request timed
    assert json.loads((tmp_path / "tracker" / "timing.json").read_text())["requests"] == requests
    t = s["tracker"]
    assert s["accuracy"] == 1.0 and t["precision"] == t["recall"] == 1.0 and t["untranslated"] == 0
    assert t["events_gold"] == t["matched"] > 0 and s["tokens"]["prompt"] > 0
    offline = _eval(stories, "--mode", "tracker", "--model", "rules")  # the rule translator, no network
    assert offline["accuracy"] == 1.0 and offline["tracker"]["recall"] == 1.0


def test_an_untranslatable_sentence_is_reported_never_guessed(stories, tmp_path):
    direct = tmp_path / "direct"
    _eval(stories, "--model", "as_self", "--out", direct)
    with FakeOpenAI(responder=_translator(wrong_every=1)) as srv:
        s = _eval(stories, "--mode", "tracker", "--base-url", srv.base_url, "--model", "fake", "--paired", direct)
        moves = s["tracker"]["untranslated"]
        assert moves > 0 and srv.count <= s["tracker"]["events_gold"] + 2 * moves  # bounded attempts
    t = s["tracker"]
    assert t["recall"] < 1.0 and t["precision"] == 1.0  # nothing invented made it into the trace
    bad = t["untranslated_sentences"][0]
    assert "teapot" in " ".join(bad["problems"]) and parse_sentence(bad["text"])["kind"] == "move"
    pair = s["paired"]
    assert pair["questions"] == s["questions"]
    assert pair["both_right"] + pair["tracker_only"] + pair["direct_only"] + pair["both_wrong"] == pair["questions"]
    assert pair["tracker"] == s["accuracy"]


def test_refused_translations_count_their_tokens(stories):
    """A reply that is not JSON is refused and asked again, but the tokens it cost are counted: the summary's
    tokens are what the endpoint billed (its usage), refused replies included."""
    with FakeOpenAI(default={"content": "I think Tara walked somewhere.",
                             "usage": {"prompt_tokens": 10, "completion_tokens": 3}}) as srv:
        s = _eval(stories, "--mode", "tracker", "--base-url", srv.base_url, "--model", "fake")
        requests = srv.count
    assert s["tracker"]["events_translated"] == 0 and s["tracker"]["untranslated"] == s["tracker"]["events_gold"]
    assert requests > 0 and s["tokens"] == {"prompt": 10 * requests, "completion": 3 * requests}


def test_tracker_mode_keeps_the_declared_rooms(tmp_path):
    """A story moves the apple into a room nobody has entered yet: the translation (which no sentence can tell
    that the garden is a room) keeps the story's declared rooms, so the rule translator answers as the gold does:
    Tara, who came onto the porch after, never saw it; Leo saw it on walking into the garden."""
    from belief.grading.questions import Question
    from belief.stories.generator import Story
    from belief.stories.questions import Candidate, StorySet
    from belief.stories.text import render

    events = [{"kind": "enter", "agents": ["Kate", "Maya"], "room": "porch"},
              {"kind": "statement", "subject": ["apple"], "value": "closet", "room": "porch"},
              {"kind": "move", "agent": "Kate", "object": "apple", "to": "garden"},
              {"kind": "enter", "agents": ["Tara"], "room": "porch"},
              {"kind": "enter", "agents": ["Leo"], "room": "garden"}]
    story = Story(id="story-9-00000", seed=9, index=0, events=events, sentences=[render(e) for e in events],
                  people=("Kate", "Maya", "Tara", "Leo"), objects=("apple",),
                  rooms={"porch": ("closet",), "garden": ()})

    def ask(n, kind, who, gold):
        q = Question(id=f"q{n}", kind=kind, chain=(who,), fluent=("in", "apple"), template="first_order",
                     text=f"{'Where does' if kind == 'value' else 'Does'} {who} ...?")
        return Candidate(story.id, q, gold, ())

    picked = [ask(1, "value", "Leo", "garden"), ask(2, "knows", "Tara", "no"), ask(3, "knows", "Leo", "yes")]
    out = tmp_path / "set"
    write_story_set(StorySet([story], {story.id: picked}), out, config_options(StoryConfig(), 1, 9, 2))
    direct = _eval(out, "--model", "checker")
    assert direct["questions"] == 3 and direct["accuracy"] == 1.0
    s = _eval(out, "--mode", "tracker", "--model", "rules")
    assert s["tracker"]["recall"] == 1.0 and s["accuracy"] == 1.0
