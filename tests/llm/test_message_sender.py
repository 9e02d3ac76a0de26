"""receive_message refuses a sender, hearer or recipient that is not an agent name with a BeliefError (not
pydantic's ValidationError from deep inside the trace event it builds), and leaves the store unchanged."""

import pytest

import belief.envs  # noqa: F401  (registers the environments' translators)
from belief.errors import BeliefError
from belief.llm.messages import MessageError, receive_message
from belief.llm.translate import Translator
from belief.llm.translation_envs import get_env


@pytest.fixture
def bomb():
    env = get_env("bomb")
    return env, Translator(env, None), env.store("alpha")


@pytest.mark.parametrize("role, kwargs, phrase", [
    ("sender", {"sender": ""}, "the message's sender '' is not an agent name"),
    ("sender", {"sender": "bad name!"}, "the message's sender 'bad name!' is not an agent name"),
    ("sender", {"sender": "bra\x00vo"}, "is not an agent name"),
    ("sender", {"sender": None}, "the message's sender must be an agent name, got NoneType"),
    ("hearer", {"hearer": " "}, "the message's hearer ' ' is not an agent name"),
    ("recipient", {"recipients": ["alpha", ""]}, "the message's recipient '' is not an agent name"),
])
def test_a_malformed_name_is_a_belief_error(bomb, role, kwargs, phrase):
    env, tr, store = bomb
    before = list(store.facts())
    args = {"hearer": "alpha", "sender": "bravo", **kwargs}
    with pytest.raises(MessageError, match=phrase) as e:
        receive_message(store, tr, args.pop("hearer"), args.pop("sender"), "bomb 1 is in room 0",
                        parse_facts=env.message_facts, **args)
    assert isinstance(e.value, BeliefError)
    assert list(store.facts()) == before


def test_a_good_sender_is_still_heard(bomb):
    env, tr, store = bomb
    rec = receive_message(store, tr, "alpha", "bravo", "bomb 1 is in room 0", parse_facts=env.message_facts)
    assert [str(c) for c in rec.claims] == ["bomb_1 IN room_0"]
