"""One vocabulary for every command (issue 27): every world has `belief run WORLD` and `belief bench WORLD`, each
with --episodes --seed --json --out --force and the executor options; every engine bench takes --json, --out and
--force; the old option names are hidden aliases that still work and refuse their new name beside them.

The commands are walked from the tables of app/cli/app.py (RUN_COMMANDS, BENCH_COMMANDS), through the click
command objects: a new world or bench is checked without being listed here."""
import json

import pytest
import typer.main
from typer.testing import CliRunner

from belief.app.cli import app, import_all_commands
from belief.app.cli.app import BENCH_COMMANDS, RUN_COMMANDS

runner = CliRunner()
#: the nine worlds the issue names (the tables may hold more, never fewer)
NINE_WORLDS = {"bomb", "transport", "household", "blocks", "hanabi", "capture", "escape", "overcooked", "guandan"}
WORLD_OPTIONS = {"--episodes", "--seed", "--json", "--out", "--force", "--executor", "--workers", "--address"}
ENGINE_OPTIONS = {"--json", "--out", "--force"}


@pytest.fixture(scope="module")
def groups():
    import_all_commands()
    root = typer.main.get_command(app)
    return {"run": root.commands["run"], "bench": root.commands["bench"]}


def _options(command) -> set:
    return {opt for p in command.params for opt in p.opts}


def _visible(command) -> set:
    return {opt for p in command.params if not getattr(p, "hidden", False) for opt in p.opts}


def _aliases(groups) -> dict:
    """{(group, command, old flag): the new flag}, from the hidden parameters the commands declare as old names
    (``run_options.deprecated_aliases`` records them on the command's callback)."""
    found = {}
    for group, table in (("run", RUN_COMMANDS), ("bench", BENCH_COMMANDS)):
        for name in table:
            command = groups[group].commands[name]
            by_name = {p.name: p for p in command.params}
            for p in command.params:
                if p.name.startswith("_old_"):
                    target = command.callback.old_names[p.opts[0]]
                    found[(group, name, p.opts[0])] = (p, by_name[target].opts[0])
    return found


def test_every_world_has_a_run_and_a_bench_command():
    assert NINE_WORLDS <= set(RUN_COMMANDS)
    missing = sorted(set(RUN_COMMANDS) - set(BENCH_COMMANDS))
    assert not missing, f"a world without `belief bench`: {missing}"


@pytest.mark.parametrize("group, name", [("run", n) for n in RUN_COMMANDS] +
                         [("bench", n) for n in BENCH_COMMANDS if n in RUN_COMMANDS or n == "coordqa"])
def test_every_world_command_takes_the_shared_options_visibly(groups, group, name):
    command = groups[group].commands[name]
    missing = sorted(WORLD_OPTIONS - _visible(command))
    assert not missing, f"belief {group} {name} lacks {missing}"


@pytest.mark.parametrize("name", [n for n in BENCH_COMMANDS if n not in RUN_COMMANDS])
def test_every_engine_bench_takes_json_out_and_force(groups, name):
    missing = sorted(ENGINE_OPTIONS - _visible(groups["bench"].commands[name]))
    assert not missing, f"belief bench {name} lacks {missing}"


def test_each_shared_option_has_one_definition(groups):
    """--episodes means the same everywhere: one flag, an integer; --json and --force flags; --out a path."""
    for group in groups.values():
        for name, command in group.commands.items():
            by_flag = {opt: p for p in command.params for opt in p.opts}
            for flag in ("--json", "--force"):
                if flag in by_flag:
                    assert by_flag[flag].is_flag, (name, flag)
            if "--out" in by_flag and name != "plot":
                assert by_flag["--out"].metavar == "DIR", name
            if "--episodes" in by_flag:
                assert by_flag["--episodes"].opts == ["--episodes"], name


#: how to use each hidden alias on tiny settings, and what the JSON line must then show
ALIAS_CASES = {
    ("run", "hanabi", "--games"): (["run", "hanabi", "--games", "1", "--agents", "hintless", "--json"],
                                   lambda d: d["episodes"] == 1),
    ("bench", "hanabi", "--games"): (["bench", "hanabi", "--games", "1", "--agents", "hintless", "--tom-games", "0",
                                      "--json"], lambda d: d["episodes"] == 1),
    ("bench", "guandan", "--games"): (["bench", "guandan", "--games", "1", "--json"],
                                      lambda d: d["matchups"]["tom_vs_rule"]["games"] == 2),  # both seatings
    ("bench", "transport", "--worlds"): (["bench", "transport", "--worlds", "2", "--agents", "rhp", "--planner",
                                          "greedy", "--json"],
                                         lambda d: d["episodes"] == 2 and d["extra"]["worlds"] == "generated"),
    ("run", "transport", "--world-seed"): (["run", "transport", "--world-seed", "3", "--agents", "rhp",
                                            "--max-steps", "3", "--json"], lambda d: d["world"] == "gen-3"),
}


def test_every_hidden_alias_has_a_case(groups):
    assert set(_aliases(groups)) == set(ALIAS_CASES)


@pytest.mark.parametrize("key", sorted(ALIAS_CASES))
def test_a_hidden_alias_works_is_hidden_and_refuses_its_new_name_beside_it(groups, key):
    group, name, flag = key
    param, new = _aliases(groups)[key]
    assert param.hidden
    help_text = runner.invoke(app, [group, name, "--help"]).stdout
    assert flag not in help_text and new in help_text
    args, check = ALIAS_CASES[key]
    r = runner.invoke(app, args + ["--no-progress", "--executor", "serial"])
    assert r.exit_code == 0, r.output[-800:]
    assert check(json.loads(r.stdout.strip().splitlines()[-1]))
    # the new name of the same value given as well: one error line naming both, nothing run
    r = runner.invoke(app, [group, name, flag, "2", new, "2"])
    errors = r.stderr.strip().splitlines()
    assert r.exit_code == 2 and len(errors) == 1, r.output[-800:]
    assert errors[0].startswith("error:") and flag in errors[0] and new in errors[0]


@pytest.mark.parametrize("group, name, flag", [("bench", "household", "--results"), ("bench", "transport", "--results"),
                                               ("run", "household", "--trace"), ("run", "transport", "--trace")])
def test_old_output_options_stay_hidden(group, name, flag):
    r = runner.invoke(app, [group, name, "--help"])
    assert r.exit_code == 0 and flag not in r.stdout


@pytest.mark.parametrize("args", [
    ["bench", "escape", "--episodes", "1", "--ask-every", "5"],
    ["bench", "guandan-moves", "--hands", "3", "--repeat", "1"],
])
def test_a_bench_that_always_printed_json_prints_a_table_and_json_on_request(args):
    plain = runner.invoke(app, args + ["--no-progress"] if args[1] != "guandan-moves" else args)
    assert plain.exit_code == 0, plain.output[-800:]
    assert not any(line.startswith("{") for line in plain.stdout.splitlines())
    assert "┃" in plain.stdout  # a rich table
    with_json = runner.invoke(app, args + ["--json"])
    assert with_json.exit_code == 0, with_json.output[-800:]
    lines = with_json.stdout.strip().splitlines()
    assert len(lines) == 1 and isinstance(json.loads(lines[0]), dict)


def test_engine_bench_out_writes_summary_json_and_needs_force_again(tmp_path):
    args = ["bench", "guandan-moves", "--hands", "3", "--repeat", "1", "--json", "--out", str(tmp_path / "o")]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "o" / "summary.json").read_text()) == json.loads(r.stdout.strip())
    again = runner.invoke(app, args)
    assert again.exit_code == 1 and again.stderr.startswith("error:") and "--force" in again.stderr
    assert runner.invoke(app, args + ["--force"]).exit_code == 0
