"""The translator: rules first, the LLM through a real loopback server, every fact checked, updates atomic."""
import pytest

from belief import examples
import belief.envs  # noqa: F401  (registers the "bomb" translation env)
from belief.errors import BeliefError
from belief.llm.client import LLMUnavailableError
from belief.logic.scenario import Scenario, load_scenario
from belief.llm.translate import Translator, TranslationError
from belief.llm.translator_config import TranslatorConfig
from belief.llm.translation_envs import env_from_scenario, get_env

OBS = """Round: 2
Total team score: 0
Results: You inspected Bomb 2. Its remaining sequence is Green, Blue.
Room contents (Room 6, your location): Bomb 2, Charlie.
Teammate locations: Bravo in Room 5, Charlie in Room 6.
Messages: none.
Your tools: Red and Green. Neighbouring rooms: Room 0, Room 5 and Room 8."""


@pytest.fixture
def bomb():
    return get_env("bomb")


def snapshot(store):
    return sorted(str(f) for f in store.facts())


def test_rules_answer_without_any_request(fake, client_for, bomb):
    tr = Translator(bomb, client_for(fake))
    store = bomb.store("alpha")
    out = tr.update(store, OBS, "alpha")
    assert out.source == "rules" and out.applied and fake.count == 0
    facts = {str(f) for f in out.facts}
    assert "alpha BELIEVE seq(bomb_2, green_blue)" in facts
    assert "alpha BELIEVE charlie BELIEVE bomb_2 IN room_6" in facts  # first order: charlie was present
    assert "alpha BELIEVE bravo AT room_5" in facts
    assert store.ask("? alpha BELIEVE seq(bomb_2, ?s)").bindings == {"s": "green_blue"}
    assert not list(store.facts(())), "reality is never written"


def test_llm_forced_valid_reply_is_applied(fake, client_for, bomb):
    fake.push({"json": {"facts": ["alpha BELIEVE bomb_2 IN room_6", "charlie AT room_6",
                                  "alpha BELIEVE charlie BELIEVE bomb_2 IN room_6"]}})
    tr = Translator(bomb, client_for(fake))
    store = bomb.store("alpha")
    out = tr.update(store, OBS, "alpha", use_llm=True)
    assert out.source == "llm" and out.attempts == 1 and fake.count == 1
    # a bare relation is read as alpha's own belief, never as reality
    assert "alpha BELIEVE charlie AT room_6" in {str(f) for f in out.facts}
    assert not list(store.facts(()))
    assert out.usage["requests"] == 1 and out.usage["total_tokens"] > 0


def test_unknown_entities_are_sent_back_then_fixed(fake, client_for, bomb):
    fake.push({"json": {"facts": ["alpha BELIEVE bomb_9 IN room_6", "alpha BELIEVE bomb_2 IN kitchen"]}},
              {"json": {"facts": ["alpha BELIEVE bomb_2 IN room_6"]}})
    tr = Translator(bomb, client_for(fake))
    store = bomb.store("alpha")
    out = tr.update(store, "Bomb 2 sits in Room 6.", "alpha", use_llm=True)
    assert out.attempts == 2 and fake.count == 2
    feedback = fake.requests[1]["messages"][-1]["content"]
    assert "unknown entity 'bomb_9'" in feedback and "unknown entity 'kitchen'" in feedback
    assert fake.requests[1]["messages"][-2]["role"] == "assistant"  # its own reply is shown back
    assert [str(f) for f in out.facts] == ["alpha BELIEVE bomb_2 IN room_6"]
    assert len(out.history) == 1 and len(out.history[0]) == 2


def test_persistent_garbage_ends_after_bounded_attempts_with_store_unchanged(fake, client_for, bomb):
    fake.responder = lambda req: {"json": {"facts": ["alpha BELIEVE bomb_1 IN nowhere"]}}
    tr = Translator(bomb, client_for(fake), max_attempts=3)
    store = bomb.store("alpha")
    store.add("alpha BELIEVE bomb_1 IN room_0")
    before = snapshot(store)
    with pytest.raises(TranslationError) as ei:
        tr.update(store, "text", "alpha", use_llm=True)
    assert fake.count == 3 and ei.value.attempts == 3
    assert "unknown entity 'nowhere'" in str(ei.value)
    assert snapshot(store) == before


@pytest.mark.parametrize("reply,needle", [
    ({"raw": "{{{", "status": 200}, "not JSON"),
    ("I think alpha sees a bomb.", "not JSON"),
    ({"json": {"facts": "alpha BELIEVE bomb_1 IN room_0"}}, "valid list"),
    ({"json": {"facts": ["alpha BELIEVE bomb_1 IN"]}}, "syntax error at column"),
    ({"json": {"facts": ["alpha BELIEVE bomb_1 IN room_0", "alpha BELIEVE bomb_1 IN room_3"]}}, "contradictory"),
    ({"json": {"facts": ["alpha BELIEVE bomb_1 IN room_0", "alpha BELIEVE NOT bomb_1 IN room_0"]}}, "contradictory"),
    ({"json": {"facts": ["alpha BELIEVE adjacent(room_3, room_5)"]}}, "closed"),
    ({"json": {"facts": ["alpha BELIEVE NOT adjacent(room_0, room_3)"]}}, "static fact"),
    ({"json": {"facts": ["alpha BELIEVE has(alpha, blue_cutter)"]}}, "static"),
    ({"json": {"facts": ["alpha BELIEVE room_0 IN bomb_1"]}}, "must be a bomb"),
    ({"json": {"facts": ["bravo BELIEVE bomb_1 IN room_0"]}}, "only alpha's own beliefs"),
    ({"json": {"facts": ["alpha BELIEVE bravo BELIEVE charlie BELIEVE bomb_1 IN room_0"]}}, "at most first-order"),
    ({"json": {"facts": ["alpha BELIEVE ?x IN room_0"]}}, "ground"),
])
def test_each_fault_is_rejected_with_a_reason_then_recovered(fake, client_for, bomb, reply, needle):
    fake.push(reply, {"json": {"facts": ["alpha BELIEVE bomb_1 IN room_0"]}})
    tr = Translator(bomb, client_for(fake))
    store = bomb.store("alpha")
    out = tr.update(store, "Bomb 1 is in Room 0.", "alpha", use_llm=True)
    assert fake.count == 2 and out.attempts == 2
    assert any(needle in p for p in out.history[0]), out.history
    assert needle in fake.requests[1]["messages"][-1]["content"]
    assert set(snapshot(store)) == set(snapshot(bomb.store("alpha"))) | {"alpha BELIEVE bomb_1 IN room_0"}


def test_contradiction_with_the_store_in_add_mode_is_fed_back(fake, client_for, bomb):
    fake.push({"json": {"facts": ["alpha BELIEVE bomb_1 IN room_3"]}},
              {"json": {"facts": ["alpha BELIEVE bomb_1 IN room_0", "alpha BELIEVE bomb_2 IN room_3"]}})
    tr = Translator(bomb, client_for(fake), mode="add")
    store = bomb.store("alpha")
    store.add("alpha BELIEVE bomb_1 IN room_0")
    out = tr.update(store, "Bomb 1 and Bomb 2; Room 0 and Room 3.", "alpha", use_llm=True)
    assert out.attempts == 2 and "functional" in out.history[0][0]
    assert store.ask("? alpha BELIEVE bomb_2 IN ?r").bindings == {"r": "room_3"}


def test_server_failure_mid_loop_leaves_the_store_unchanged(fake, client_for, bomb):
    fake.push({"json": {"facts": ["alpha BELIEVE bomb_9 IN room_0"]}}, {"status": 500}, {"status": 500})
    tr = Translator(bomb, client_for(fake, max_retries=1))
    store = bomb.store("alpha")
    before = snapshot(store)
    with pytest.raises(LLMUnavailableError):
        tr.update(store, "text", "alpha", use_llm=True)
    assert fake.count == 3 and snapshot(store) == before


def test_timeouts_in_translation_are_bounded(fake, client_for, bomb):
    fake.responder = lambda req: {"delay": 3, "content": "{}"}
    tr = Translator(bomb, client_for(fake, timeout=0.3, max_retries=1))
    store = bomb.store("alpha")
    before = snapshot(store)
    with pytest.raises(LLMUnavailableError, match="timed out"):
        tr.update(store, "text", "alpha", use_llm=True)
    assert fake.count == 2 and snapshot(store) == before


def test_uncovered_sentences_go_to_the_llm_only(fake, client_for, bomb):
    fake.push({"json": {"facts": ["alpha BELIEVE bomb_5 IN room_8"]}})
    tr = Translator(bomb, client_for(fake))
    text = OBS + "\nA strange ticking comes from Room 8, where Bomb 5 sits."
    out = tr.translate(text, "alpha")
    assert out.source == "rules+llm" and fake.count == 1
    user = fake.requests[0]["messages"][1]["content"]
    assert "strange ticking" in user and "Neighbouring rooms" not in user.split("Already known")[0]
    assert "alpha BELIEVE bomb_5 IN room_8" in {str(f) for f in out.facts}
    # without an LLM the same text reports what was not understood
    out2 = Translator(bomb).translate(text, "alpha")
    assert out2.uncovered == ["A strange ticking comes from Room 8, where Bomb 5 sits."]


def test_order_restrictions(fake, client_for, bomb):
    tr = Translator(bomb)
    c0 = tr.check(["alpha BELIEVE bravo BELIEVE bomb_1 IN room_0"], "alpha", order=0)
    assert "zero-order" in c0.errors[0]
    c1 = tr.check(["alpha BELIEVE bomb_1 IN room_0"], "alpha", order=1)
    assert "first-order" in c1.errors[0]
    c2 = tr.check(["alpha BELIEVE bravo BELIEVE bomb_1 IN room_0"], "alpha", order=1, partners=["charlie"])
    assert "not a partner" in c2.errors[0]
    assert tr.prompt("x", "alpha", order=1)[0]["content"].count("FIRST-ORDER") == 1
    assert "ZERO-ORDER" not in tr.prompt("x", "alpha", order=1)[0]["content"]


def test_llm_required_but_missing(bomb):
    with pytest.raises(TranslationError, match="no LLM is configured"):
        Translator(bomb).translate("x", "alpha", use_llm=True)


# --- the CoBel-World hallucinations ------------------------------------------------------------------
def test_transport_rejects_bread_into_orange_and_bed_in_office():
    dom = examples.domain("transport")
    sc = Scenario("house", "transport", ("Alice", "Bob"),
                  {"kitchen": "room", "office": "room", "bedroom": "room", "bed": "bed", "bread": "food",
                   "orange": "food", "basket": "container"}, (), ()).with_domain(dom)
    tr = Translator(env_from_scenario(sc))
    checked = tr.check(["Alice BELIEVE orange CONTAIN bread", "Alice BELIEVE bed IN office",
                        "Alice BELIEVE basket CONTAIN bread"], "Alice")
    assert [str(f) for f in checked.facts] == ["Alice BELIEVE basket CONTAIN bread"]
    assert "argument 1 of contain must be a container, but 'orange' is a food" in checked.errors[0]
    assert "argument 1 of in must be a target, but 'bed' is a bed" in checked.errors[1]


FURNITURE = """
(define (domain household)
  (:types place - entity room - place furniture item - object object - entity)
  (:predicates (in ?o - object ?p - place) (at ?a - agent ?r - room))
  (:functional in at))
(define (problem flat) (:domain household)
  (:agents Alice Bob)
  (:objects kitchen office bedroom - room bed_1 - furniture apple - item)
  (:init (in bed_1 bedroom) (in apple kitchen)))
"""


def test_fixed_furniture_cannot_be_placed_elsewhere(fake, client_for):
    sc = load_scenario(FURNITURE)
    env = env_from_scenario(sc, fixed=["bed_1"])
    fake.push({"json": {"facts": ["Alice BELIEVE bed_1 IN office", "Alice BELIEVE apple IN office"]}},
              {"json": {"facts": ["Alice BELIEVE apple IN office", "Alice BELIEVE bed_1 IN bedroom"]}})
    tr = Translator(env, client_for(fake))
    from belief.logic.store import BeliefStore

    store = BeliefStore(env.domain, env.entities)
    out = tr.update(store, "Alice sees the apple in the office next to the bed.", "Alice", use_llm=True)
    assert out.attempts == 2
    (reason,) = out.history[0]
    assert "bed_1 is fixed" in reason and "bed_1 IN bedroom" in reason
    assert store.ask("? Alice BELIEVE apple IN ?p").bindings == {"p": "office"}
    # the apple is not fixed: placing it elsewhere is fine; the same fixed check guards messages too


def test_translator_config_file(tmp_path):
    p = tmp_path / "tr.toml"
    p.write_text('[translator]\nenv = "bomb"\nmax_attempts = 2\nstatic_facts = ["bomb_1 IN room_0"]\n')
    cfg = TranslatorConfig.load(p)
    tr = Translator.from_config(cfg)
    assert tr.max_attempts == 2
    assert "fixed" in tr.check(["alpha BELIEVE bomb_1 IN room_3"], "alpha").errors[0]
    bad = tmp_path / "bad.json"
    bad.write_text('{"env": "bomb", "max_attemps": 2}')
    with pytest.raises(BeliefError, match="max_attemps"):
        TranslatorConfig.load(bad)


def test_study_wording_is_covered(alpha_reads):
    text = ('Your observation is: Round: 3. Total team score: 10. Results: You inspected Bomb 3. This bomb is a '
            '2-stage bomb and its remaining sequence is Red-Green. Room contents: You are currently in Room 5. '
            'Contents of this room include alpha and bravo, Bomb 3. Communication messages sent by your teammates: '
            'Player bravo: "Bomb 1 is in Room 0". Player charlie: "None". ')
    out, facts = alpha_reads(text)
    assert {"alpha BELIEVE seq(bomb_3, red_green)", "alpha BELIEVE alpha AT room_5",
            "alpha BELIEVE bomb_3 IN room_5", "alpha BELIEVE bravo AT room_5"} <= facts
    assert out.uncovered == [] and out.messages == [("bravo", "Bomb 1 is in Room 0")]
    assert not any("bomb_1" in f for f in facts), "message text never becomes an observation"


@pytest.mark.parametrize("seed,random_maps", [(0, False), (1, True), (7, False)])
def test_rules_cover_every_bomb_v0_observation(seed, random_maps):
    """Random play: every observation is fully understood, valid, and the agent's own location is right."""
    import random

    from belief.agents.bomb.llm import render_view
    from belief.envs.bomb import environment as bomb_v0
    from belief.envs.bomb.translation import bomb_env_from_trace_meta

    e = bomb_v0.raw_env(seed=seed, random_maps=random_maps)
    e.reset()
    env = bomb_env_from_trace_meta(e.trace.meta)
    tr = Translator(env)
    stores = {a: env.store(a) for a in e.possible_agents}
    rng = random.Random(seed)
    for _ in range(60):
        a = e.agent_selection
        if e.terminations[a] or e.truncations[a]:
            break
        text = render_view(e.infos[a]["obs"], e.world.map, e.world.cutters, include_messages=False)
        out = tr.update(stores[a], text, a)
        assert out.uncovered == [] and out.applied
        assert stores[a].ask(f"? {a} BELIEVE {a} AT ?r").bindings == {"r": f"room_{e.world.locations[a]}"}
        mask = e.infos[a]["action_mask"]
        e.step(rng.choice([i for i, m in enumerate(mask) if m]))
