"""Bomb message and observation parsing is linear (issue 11: a 10 KB message took 37 s).

The adversarial inputs below made the old regexes backtrack quadratically or worse. The regex engine holds
the GIL and ignores signals, so the parsing runs in a child process with a hard timeout; each result is
also checked, so a fix that returns nothing cannot pass.
"""
import json
import subprocess
import sys

CHILD = r'''
import json, sys
from belief.envs.bomb.translation import BombRules
from belief.envs.bomb.text import parse_message_facts, split_message
from belief.agents.bomb.llm import split_reply

pad = 10_000
out = {}
out["spaces_after_bomb"] = parse_message_facts("Bomb 1" + " " * pad + "remaining sequence: red, green.")
out["newlines_after_bomb"] = parse_message_facts("Bomb 1" + "\n" * pad + "is defused")
out["colours"] = parse_message_facts("Bomb 1 sequence " + "red " * (pad // 4) + "!")
out["bombs"] = parse_message_facts("Room 3 contains " + "Bomb 1 " * (pad // 7) + "x")
out["tabs"] = parse_message_facts("Bomb 2 (in Room 3)" + "\t" * pad + "x")
obs = ("Results: You inspected Bomb 2. Its remaining sequence is" + " " * pad + "Green, Blue.\n"
       "Room contents (Room 6, your location): Bomb 2.\n"
       "Messages: Bravo: " + json.dumps("Bomb 1" + " " * pad + "x" + ' alpha: "' * 500) + "\n"
       "Your tools: Red and Green.")
res = BombRules().translate(obs, "alpha")
out["obs_facts"] = sorted(map(str, res.facts))
out["obs_messages"] = [s for s, _ in res.messages]
out["sequence_spaces"] = sorted(map(str, BombRules().translate(
    "You inspected Bomb 2. Its remaining sequence is " + " " * pad + "x", "alpha").facts))
out["split"] = split_message("Move to Room 5 " + "message: " * 1000)[0]
out["reply"] = split_reply("Action selection: Move to Room 5. " + "Message to Team: " * 1000)[0]
print(json.dumps(out))
'''


def test_adversarial_messages_and_observations_parse_in_linear_time():
    p = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr[-2000:]
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["spaces_after_bomb"] == [{"type": "seq", "bomb": 1, "seq": ["red", "green"]}]
    assert {"type": "defused", "bomb": 1} in out["newlines_after_bomb"]
    assert out["colours"] == [{"type": "seq", "bomb": 1, "seq": ["red"] * 2500}]
    assert out["bombs"] == [{"type": "contents", "room": 3, "bombs": [1]}]
    assert out["tabs"] == []
    assert "alpha BELIEVE seq(bomb_2, green_blue)" in out["obs_facts"]
    assert out["obs_messages"] == ["bravo"]
    assert out["sequence_spaces"] == []
    assert out["split"] == "Move to Room 5"
    assert out["reply"] == "Action selection: Move to Room 5"
