"""``belief stories``: generate ToM stories with questions; ``belief eval``: put a dataset's questions to a model
(or a built-in answerer) and grade the answers against the checker (docs/evaluation.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from belief.app.cli import run_options
from belief.app.cli.app import app
from belief.app.runs.progress import progress_bar
from belief.errors import BeliefError


def _fail(message: str, code: int = 1):
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    raise typer.Exit(code)


def _people(text: str) -> tuple:
    lo, sep, hi = text.partition("-")
    try:
        pair = (int(lo), int(hi if sep else lo))
    except ValueError:
        raise typer.BadParameter(f"{text!r}: give people as N or LO-HI, e.g. 2-6") from None
    return pair


@app.command("stories")
def stories_cmd(
    n: int = typer.Option(100, "--n", min=1, max=1_000_000, help="number of stories"),
    seed: int = typer.Option(0, "--seed", min=0, help="seed of the set (story i is the same whatever --n)"),
    depth: int = typer.Option(4, "--depth", min=1, max=4, help="deepest belief order asked (1-4)"),
    phenomena: Optional[str] = typer.Option(None, "--phenomena", metavar="LIST",
                                            help="comma-separated optional actions: tell, announce, peek, "
                                            "distracted, overhear, opaque, quiet, room_move (default: all)"),
    people: str = typer.Option("2-6", "--people", metavar="LO-HI", help="people per story (2-6)"),
    per_story: int = typer.Option(2, "--per-story", min=1, max=50, help="questions per story and order template"),
    out: Path = typer.Option(..., "--out", metavar="DIR", file_okay=False, help="directory to write the set into"),
    force: bool = run_options.FORCE,
    as_json: bool = run_options.JSON,
    progress: bool = run_options.PROGRESS,
):
    """Generate ToM stories from actions (trace, plain English, questions where ToM is needed) into DIR."""
    from belief.app.evaluation.stories_dir import config_options, write_story_set
    from belief.stories.generator import FEATURES, StoryConfig
    from belief.stories.questions import generate_set

    try:
        features = FEATURES if phenomena is None else tuple(p.strip() for p in phenomena.split(",") if p.strip())
        config = StoryConfig(depth=depth, people=_people(people), features=features)
        with progress_bar("generating stories", total=n, enabled=progress) as bar:
            story_set = generate_set(n, seed, config, per_story, progress=lambda k: bar.advance())
        manifest = write_story_set(story_set, out, config_options(config, n, seed, per_story), force)
    except (BeliefError, OSError) as e:
        _fail(str(e))
    counts = manifest["counts"]
    print(f"{manifest['stories']} stories, {manifest['questions']} questions in {out}")
    for key in ("order", "phenomenon"):
        print(f"  by {key}: " + ", ".join(f"{k} {v}" for k, v in counts[key].items()))
    if as_json:
        print(json.dumps({"out": str(out), "stories": manifest["stories"], "questions": manifest["questions"],
                          "counts": counts}))
