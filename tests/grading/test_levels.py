"""The ToM question vocabulary (levels, level -> chain) has one definition, which every world uses."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from belief.grading.levels import LEVELS, LEVEL_TITLES, level_chain

ROOT = Path(__file__).resolve().parents[2]


def test_level_chains():
    assert [level_chain(lvl, "me", "you") for lvl in LEVELS] == [("me",), ("you",), ("you", "me")]
    assert set(LEVEL_TITLES) == set(LEVELS)
    with pytest.raises(KeyError):
        level_chain("third_order", "me", "you")


def test_worlds_share_the_levels():
    from belief.envs.blocks import tom as blocks_tom
    from belief.envs.bomb import tom as bomb_tom
    from belief.envs.hanabi import tom as hanabi_tom
    from belief.grading import report

    assert all(m.LEVELS is LEVELS for m in (blocks_tom, bomb_tom, hanabi_tom, report))


def test_no_other_module_defines_levels_or_level_chains():
    """No ``LEVELS = ...`` assignment and no dict literal mapping the three levels outside levels.py."""
    found = []
    for folder in ("belief", "envs", "agents", "app"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "levels.py" and path.parent.name == "grading":
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in ("LEVELS", "LEVEL_TITLES")
                                                        for t in node.targets):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                if isinstance(node, ast.Dict) and {k.value for k in node.keys if isinstance(k, ast.Constant)} >= set(LEVELS):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found
