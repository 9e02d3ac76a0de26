"""No command overwrites an existing output without --force, nor ever its own input."""

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from belief.app.cli import app

runner = CliRunner()
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TOMI = FIXTURES / "tomi" / "mini.txt"
HITOM = FIXTURES / "hitom" / "mini.json"


def _one_error(r, code: int):
    assert r.exit_code == code, r.output
    assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_tomi_never_writes_over_its_input(tmp_path):
    stories = tmp_path / "s.txt"
    shutil.copy(TOMI, stories)
    before = stories.read_bytes()
    for extra in ([], ["--force"]):
        r = runner.invoke(app, ["tomi", str(stories), "--predictions", str(stories), *extra])
        _one_error(r, 2)
        assert "is an input" in r.stderr
        assert stories.read_bytes() == before


def test_tomi_refuses_an_existing_output_without_force(tmp_path):
    stories = tmp_path / "s.txt"
    shutil.copy(TOMI, stories)
    pred = tmp_path / "pred.jsonl"
    pred.write_text("keep me\n")
    r = runner.invoke(app, ["tomi", str(stories), "--predictions", str(pred)])
    _one_error(r, 1)
    assert "--force" in r.stderr and pred.read_text() == "keep me\n"
    r = runner.invoke(app, ["tomi", str(stories), "--predictions", str(pred), "--audit", str(pred), "--force"])
    _one_error(r, 2)
    assert "same file" in r.stderr
    r = runner.invoke(app, ["tomi", str(stories), "--predictions", str(pred), "--force"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in pred.read_text().splitlines()]
    assert rows and all(isinstance(x, dict) for x in rows)
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_hitom_refuses_an_existing_audit_without_force(tmp_path):
    audit = tmp_path / "audit.jsonl"
    audit.write_text("keep me\n")
    r = runner.invoke(app, ["hitom", str(HITOM), "--audit", str(audit)])
    _one_error(r, 1)
    assert audit.read_text() == "keep me\n"
