"""LLM mode of the CoBel transport agent against a real loopback server (belief.testing.llm_server) and the real
openai client: checked updates (all-or-nothing), predictions among the enumerated candidates, fallbacks
that are counted, bounded request counts, and the CLI's one-line error for an unreachable endpoint."""

import json
import re
import socket
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from belief.agents.transport import cobel as tc
from belief.agents.transport.llm import TransportLLM
from belief.app.cli import app
from belief.envs.transport import environment as tv
from belief.llm.client import LLMClient, LLMConfig
from belief.testing.llm_server import FakeOpenAI, last_user_text
from belief.app.runners.transport import run_episode


@pytest.fixture(autouse=True)
def _no_llm_env(monkeypatch):
    for var in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "BELIEF_MODEL", "BELIEF_LLM_CONFIG"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def fake():
    with FakeOpenAI() as srv:
        yield srv


def mode_for(srv, parts=("update", "predict", "message"), timeout=10.0, **kw):
    # a generous timeout where answers are expected (a loaded CI machine must not turn them into fallbacks)
    client = LLMClient(LLMConfig(base_url=srv.base_url, model="fake", api_key="test", timeout=timeout, max_retries=0,
                                 cache=False))
    return TransportLLM(client, parts, **kw)


@pytest.fixture(scope="module")
def task():
    env = tv.parallel_env(episode=0)
    _, infos = env.reset()
    return infos["alice"]["task"]


def kitchen_view(bob_here=True):
    obs = ("alice", "bob") if bob_here else ("alice",)
    return {"agent": "alice", "frame": 200, "budget": 3000, "room": "kitchen_1", "idle": True, "explored": "all",
            "holding": [], "contents": {}, "present": ["bob"] if bob_here else [],
            "visible": {"apple_1": "kitchen_1", "bread_1": "kitchen_1"},
            "events": [("saw", "explored", "kitchen_1", "all", obs), ("saw", "in", "apple_1", "kitchen_1", obs),
                       ("saw", "in", "bread_1", "kitchen_1", obs)],
            "messages": [], "feedback": None}


def facts_of(state):
    return sorted(str(f) for f in state.store.facts())


def scripted_model(request):
    """A stand-in model: reads the observation/candidates in the prompt and answers in the schema."""
    rf = request.get("response_format") or {}
    name = (rf.get("json_schema") or {}).get("name", "")
    user = last_user_text(request)
    if name == "SubgoalChoice":
        return {"json": {"choice": len(re.findall(r"^\d+: ", user, re.M)) - 1}}
    if name == "FactList":
        obs = user.split("<<<\n", 1)[1].split("\n>>>", 1)[0]
        agent, room, ex = re.search(r"You \((\w+)\) are in (\w+) \(your search: (\w+)\)", obs).groups()
        facts = [f"{agent} BELIEVE {room} EXPLORED {ex}"]
        seen = re.search(r"You see: (.*)\.$", obs, re.M)
        for item in (seen.group(1).split("; ") if seen else []):
            o, loc = item.split(" in ")
            facts.append(f"{agent} BELIEVE {o} IN {loc}")
        here = re.search(r"Also here: (\w+)", obs)
        if here:
            facts += [f.replace(f"{agent} BELIEVE ", f"{agent} BELIEVE {here.group(1)} BELIEVE ", 1) for f in facts]
        return {"json": {"facts": facts}}
    return {"content": "I will fetch those."}


# --- update ------------------------------------------------------------------------------------------------
def test_valid_llm_facts_are_applied_in_place_of_the_deterministic_ones(fake, task):
    s0 = tc.initial_state("alice", task)
    mode = mode_for(fake, parts=("update",))
    cfg = mode.configure(tc.PRESETS["cobel"])
    fake.push({"json": {"facts": ["alice BELIEVE kitchen_1 EXPLORED all", "alice BELIEVE apple_1 IN kitchen_1",
                                  "alice BELIEVE bob BELIEVE apple_1 IN kitchen_1"]}})
    s1 = tc.update(s0, kitchen_view(), cfg)
    assert fake.count == 1
    assert facts_of(s1) == ["alice BELIEVE apple_1 IN kitchen_1", "alice BELIEVE bob BELIEVE apple_1 IN kitchen_1",
                            "alice BELIEVE kitchen_1 EXPLORED all"]
    assert facts_of(s0) == []  # still pure
    det = tc.update(s0, kitchen_view())
    assert "alice BELIEVE bread_1 IN kitchen_1" in facts_of(det)  # the rules would have written more
    assert mode.report()["update"] == {"calls": 1, "llm": 1, "fallbacks": 0, "rejected_attempts": 0}
    prompt = fake.requests[0]["messages"][-1]["content"]
    assert "You see: apple_1 in kitchen_1; bread_1 in kitchen_1." in prompt


def test_hallucinated_facts_are_rejected_with_reasons_and_the_store_falls_back(fake, task):
    s0 = tc.initial_state("alice", task)
    mode = mode_for(fake, parts=("update",))
    cfg = mode.configure(tc.PRESETS["cobel"])
    bad = {"json": {"facts": ["alice BELIEVE kitchen_1 EXPLORED all",  # valid, but the batch is all-or-nothing
                              "alice BELIEVE apple_1 IN apple_2", "alice BELIEVE bed IN office_1",
                              "alice BELIEVE unicorn_1 IN kitchen_1", "alice BELIEVE banana_1 IN kitchen_1",
                              "alice BELIEVE kitchen_1 IN office_1"]}}
    fake.push(bad, bad)
    s1 = tc.update(s0, kitchen_view(), cfg)
    assert fake.count == 2  # attempts=2, no more
    assert facts_of(s1) == facts_of(tc.update(s0, kitchen_view()))  # exactly the deterministic update
    assert "alice BELIEVE banana_1 IN kitchen_1" not in facts_of(s1)
    feedback = fake.requests[1]["messages"][-1]["content"]
    assert "nothing was recorded" in feedback
    for reason in ("apple_2", "bed is fixed", "unicorn_1", "banana_1 is not mentioned in the observation",
                   "kitchen_1 does not move"):
        assert reason in feedback, reason
    assert mode.report()["update"] == {"calls": 1, "llm": 0, "fallbacks": 1, "rejected_attempts": 2}


def test_first_order_facts_need_the_partner_there(fake, task):
    s0 = tc.initial_state("alice", task)
    mode = mode_for(fake, parts=("update",), attempts=1)
    cfg = mode.configure(tc.PRESETS["cobel"])
    fake.push({"json": {"facts": ["alice BELIEVE kitchen_1 EXPLORED all",
                                  "alice BELIEVE bob BELIEVE kitchen_1 EXPLORED all"]}})
    s1 = tc.update(s0, kitchen_view(bob_here=False), cfg)
    assert fake.count == 1
    assert "bob was not there" in mode.last_error
    assert facts_of(s1) == facts_of(tc.update(s0, kitchen_view(bob_here=False)))


@pytest.mark.parametrize("reply", [{"status": 500}, {"delay": 2.0}], ids=["http500", "timeout"])
def test_unavailable_endpoint_falls_back_deterministically_and_is_counted(fake, task, reply):
    s0 = tc.initial_state("alice", task)
    mode = mode_for(fake, parts=("update",), timeout=0.5)
    cfg = mode.configure(tc.PRESETS["cobel"])
    fake.push(reply)
    s1 = tc.update(s0, kitchen_view(), cfg)
    assert fake.count == 1  # max_retries=0: one attempt, no translator retry for an unavailable endpoint
    assert facts_of(s1) == facts_of(tc.update(s0, kitchen_view()))
    rep = mode.report()
    assert rep["update"]["fallbacks"] == 1 and rep["failed_requests"] == 1 and not rep["disabled"]


def test_breaker_stops_asking_a_dead_endpoint(fake, task):
    s = tc.initial_state("alice", task)
    mode = mode_for(fake, parts=("update",), breaker=3)
    cfg = mode.configure(tc.PRESETS["cobel"])
    fake.default = {"status": 503}
    for _ in range(6):
        s = tc.update(s, kitchen_view(), cfg)
    assert fake.count == 3 and mode.disabled
    assert mode.report()["update"] == {"calls": 6, "llm": 0, "fallbacks": 6, "rejected_attempts": 0}


# --- predict -----------------------------------------------------------------------------------------------
def predicted_state(task):
    s = tc.initial_state("alice", task)
    s = tc.update(s, kitchen_view())
    return s


def test_prediction_picks_among_the_candidates_and_is_blended(fake, task):
    s = predicted_state(task)
    det = tc.predict(s, tc.PRESETS["cobel"])
    goals = list(det.models['bob'].goal_prob)
    assert len(goals) > 2
    mode = mode_for(fake, parts=("predict",))
    cfg = mode.configure(tc.PRESETS["cobel"])
    k = len(goals) - 1  # the least likely one by the deterministic model's order
    fake.push({"json": {"choice": 99}}, {"json": {"choice": k}})
    out = tc.predict(s, cfg)
    assert fake.count == 2
    assert "choice 99 is not a candidate" in fake.requests[1]["messages"][-1]["content"]
    assert list(out.models['bob'].goal_prob) == goals
    assert out.models['bob'].goal_prob[goals[k]] == pytest.approx(0.5 * det.models['bob'].goal_prob[goals[k]] + 0.5)
    assert sum(out.models['bob'].goal_prob.values()) == pytest.approx(1.0)
    assert max(out.models['bob'].goal_prob, key=out.models['bob'].goal_prob.get) == goals[k]  # the prediction is used
    assert mode.report()["predict"] == {"calls": 1, "llm": 1, "fallbacks": 0, "rejected_attempts": 1}
    # probabilities, when given, are used (normalised) instead of the one-hot choice
    fake.push({"json": {"choice": 0, "probabilities": [1.0] + [0.0] * (len(goals) - 1)}})
    out2 = tc.predict(s, cfg)
    assert out2.models['bob'].goal_prob[goals[0]] == pytest.approx(0.5 * det.models['bob'].goal_prob[goals[0]] + 0.5)


def test_prediction_falls_back_after_bounded_invalid_answers(fake, task):
    s = predicted_state(task)
    det = tc.predict(s, tc.PRESETS["cobel"])
    mode = mode_for(fake, parts=("predict",))
    cfg = mode.configure(tc.PRESETS["cobel"])
    fake.push({"json": {"choice": -1}}, {"json": {"choice": 0, "probabilities": [0.5]}}, {"json": {"choice": 0}})
    out = tc.predict(s, cfg)
    assert fake.count == 2 and out.models['bob'].goal_prob == det.models['bob'].goal_prob
    assert mode.report()["predict"] == {"calls": 1, "llm": 0, "fallbacks": 1, "rejected_attempts": 2}


# --- a short episode ---------------------------------------------------------------------------------------
def test_short_episode_over_the_fake_server_uses_all_parts_with_bounded_requests():
    with FakeOpenAI(responder=scripted_model) as srv:
        mode = mode_for(srv)
        r = run_episode(0, "cobel", llm=mode, max_steps=12)
        rep = r["llm"]
        assert rep["update"]["llm"] > 0 and rep["update"]["fallbacks"] == 0
        assert rep["predict"]["llm"] > 0 and rep["predict"]["fallbacks"] == 0
        assert srv.count == rep["requests"] == (rep["update"]["calls"] + rep["predict"]["calls"]
                                                 + rep["message"]["calls"])
        assert rep["total_tokens"] > 0 and r["steps"] == 12
        # against the world (not the checker): a teammate's unseen search makes a held level stale, so below 1
        assert r["belief_accuracy_world"] > 0.8
    with FakeOpenAI(default={"status": 500}) as dead:
        mode = mode_for(dead, breaker=10 ** 6)
        r2 = run_episode(0, "cobel", llm=mode, max_steps=12)
        plain = run_episode(0, "cobel", max_steps=12)
        calls = sum(r2["llm"][p]["calls"] for p in ("update", "predict", "message"))
        assert dead.count == calls  # one request per call: no retries on 5xx with max_retries=0
        assert sum(r2["llm"][p]["fallbacks"] for p in ("update", "predict", "message")) == calls
        strip = lambda row: {k: v for k, v in row.items() if k not in ("llm", "planner")}  # noqa: E731
        assert strip(r2) == strip(plain)  # every fallback is the deterministic behaviour


# --- CLI ---------------------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("cmd", [["bench", "transport", "--episodes-subset", "0", "--agents", "cobel"],
                                 ["run", "transport", "--episode", "0"]], ids=["bench", "run"])
def test_cli_unreachable_endpoint_exits_1_with_one_error_line(cmd):
    port = free_port()
    p = subprocess.run([sys.executable, "-m", "belief", *cmd, "--llm", "--base-url", f"http://127.0.0.1:{port}/v1",
                        "--model", "m", "--timeout", "1", "--max-retries", "0"],
                       capture_output=True, text=True, timeout=60,
                       env={k: v for k, v in __import__("os").environ.items()
                            if k not in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "BELIEF_MODEL", "BELIEF_LLM_CONFIG")})
    assert p.returncode == 1, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot reach"), p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""


def test_cli_llm_options_need_llm_and_known_parts():
    r = CliRunner().invoke(app, ["run", "transport", "--model", "m"])
    assert r.exit_code == 2 and "--model only applies with --llm" in r.output
    r = CliRunner().invoke(app, ["run", "transport", "--llm", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
                                 "--llm-parts", "update,dream"])
    assert r.exit_code == 1 and "dream" in r.output


def test_cli_run_transport_with_llm_reports_usage(fake):
    fake.responder = scripted_model
    r = CliRunner().invoke(app, ["run", "transport", "--episode", "0", "--max-steps", "8", "--llm", "--base-url",
                                 fake.base_url, "--model", "fake", "--llm-parts", "update,predict", "--json"])
    assert r.exit_code == 0, r.output
    row = json.loads(r.stdout.strip().splitlines()[-1])
    assert row["llm"]["parts"] == ["update", "predict"] and "message" not in row["llm"]
    assert row["llm"]["requests"] == fake.count > 0
    assert "LLM mode (cobel)" in r.stdout


def test_cli_bench_json_has_llm_key_only_with_llm(fake):
    fake.responder = scripted_model
    base = ["bench", "transport", "--episodes-subset", "0", "--agents", "cobel,silent"]
    r = CliRunner().invoke(app, base + ["--llm", "--base-url", fake.base_url, "--model", "fake",
                                        "--llm-parts", "predict", "--json"])
    assert r.exit_code == 0, r.output
    line = json.loads(r.stdout.strip().splitlines()[-1])
    assert line["extra"]["llm"]["requests"] == fake.count > 0 and set(line["by_agent"]) == {"cobel", "silent"}


def test_cli_endpoint_that_never_answers_ends_the_run_with_one_error_line(fake):
    fake.default = {"status": 404}  # reachable (preflight passes) but every chat request is refused
    r = CliRunner().invoke(app, ["run", "transport", "--episode", "0", "--llm", "--base-url", fake.base_url,
                                 "--model", "fake", "--max-retries", "0"])
    assert r.exit_code == 1
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: LLM mode gave up: 5 consecutive failures"), r.output
    # 5 counted failures; the first structured request also walks the client's response_format modes (404 ->
    # json_object -> text: +2) and a message may be tried in between (its failure is a silent fallback)
    assert 5 <= fake.count <= 9
