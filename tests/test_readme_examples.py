"""The README's declaration example is valid: it parses and every initial fact passes its own domain."""

import re
from pathlib import Path

from belief.scenario import load_scenario

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_lisp_example_loads_and_type_checks():
    blocks = re.findall(r"```lisp\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no declaration example"
    for block in blocks:
        scenario = load_scenario(block, source="README.md")
        store = scenario.store()
        assert len(store) == len(scenario.init)
        assert scenario.queries and store.ask(scenario.queries[0]).known is False  # nobody told Anne anything
