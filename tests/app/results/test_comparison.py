"""The paired-difference math of the benchmark shape, against cases computed by hand."""
import math

import pytest

from belief.app.results.comparison import Metric, compare, paired_difference, share
from belief.app.results.schema import BenchShapeError, validate_bench_json
from belief.errors import BeliefError

STEPS = Metric("steps", False, "steps")
T2 = 4.302652729749464  # t(0.975, 2), printed tables: 4.303


def _rows(values, key="steps"):
    return [{"seed": s, key: v} for s, v in values.items()]


def test_paired_difference_by_hand():
    # headline 10, 12, 14 against 13, 14, 18: differences -3, -2, -4, mean -3, sd 1, half t(2) / sqrt(3)
    d = paired_difference(_rows({0: 10, 1: 12, 2: 14}), _rows({0: 13, 1: 14, 2: 18}), STEPS)
    half = T2 * 1 / math.sqrt(3)
    assert d["mean"] == pytest.approx(-3) and d["n"] == 3
    assert d["ci95"] == pytest.approx([-3 - half, -3 + half]) and round(half, 3) == 2.484
    assert d["ordering"] == "headline better"  # fewer steps, and the interval excludes 0
    more_is_better = Metric("steps", True, "steps")
    assert paired_difference(_rows({0: 10, 1: 12, 2: 14}), _rows({0: 13, 1: 14, 2: 18}),
                             more_is_better)["ordering"] == "baseline better"
    neutral = Metric("steps", None, "steps")
    assert paired_difference(_rows({0: 10, 1: 12, 2: 14}), _rows({0: 13, 1: 14, 2: 18}),
                             neutral)["ordering"] == "headline lower"


def test_pairing_uses_only_the_seeds_both_measured():
    # seed 2 lacks a baseline, seed 3 a headline value (None: not measured): pairs (0, 1) only, 5 - 1 and 6 - 4
    d = paired_difference(_rows({0: 5, 1: 6, 2: 7, 3: None}), _rows({0: 1, 1: 4, 3: 9}), STEPS)
    assert d["n"] == 2 and d["mean"] == pytest.approx(3)
    # differences 4 and 2: sd sqrt(2), half t(1) sqrt(2) / sqrt(2) = 12.706
    assert d["ci95"] == pytest.approx([3 - 12.7062047, 3 + 12.7062047]) and d["ordering"] == "no ordering"
    one = paired_difference(_rows({0: 5}), _rows({0: 1}), STEPS)
    assert one == {"mean": 4.0, "ci95": None, "ordering": "no ordering", "n": 1}
    none = paired_difference(_rows({0: 5}), _rows({1: 1}), STEPS)
    assert none == {"mean": None, "ci95": None, "ordering": "no ordering", "n": 0}


def test_compare_builds_and_validates_the_shape():
    results = {"cobel": [{"seed": 0, "steps": 10, "done": 1.0, "acc": 0.5}, {"seed": 1, "steps": 12, "done": 1.0, "acc": None},
                         {"seed": 2, "steps": 14, "done": 0.0, "acc": 1.0}],
               "single": [{"seed": 0, "steps": 13, "done": 1.0, "acc": None}, {"seed": 1, "steps": 14, "done": 1.0, "acc": None},
                          {"seed": 2, "steps": 18, "done": 1.0, "acc": None}]}
    out = compare("toy_v0", results, (STEPS, share("done"), share("acc")), "cobel", seed=0, extra={"note": 1})
    validate_bench_json(out)
    cobel = out["by_agent"]["cobel"]
    half = T2 * 2 / math.sqrt(3)  # 10, 12, 14: sd 2
    assert cobel["steps"] == 12 and cobel["ci95"]["steps"] == pytest.approx([12 - half, 12 + half])
    assert cobel["acc"] == 0.75 and cobel["n"]["acc"] == 2 and cobel["episodes"] == 3
    lo, hi = cobel["ci95"]["done"]
    assert cobel["done"] == pytest.approx(2 / 3) and lo >= 0.0 and hi == 1.0  # a share stays in [0, 1]
    single = out["by_agent"]["single"]
    assert single["acc"] is None and single["ci95"]["acc"] is None and single["n"]["acc"] == 0
    assert out["diff_vs"]["single"]["steps"]["ordering"] == "headline better"
    assert out["diff_vs"]["single"]["acc"]["n"] == 0
    assert out["metrics"]["steps"] == {"higher_is_better": False, "unit": "steps"}
    assert (out["headline"], out["episodes"], out["seed"], out["extra"]) == ("cobel", 3, 0, {"note": 1})


def test_compare_refuses_what_it_cannot_pair():
    with pytest.raises(BeliefError, match="no 'seed'"):
        compare("w", {"a": [{"steps": 1}]}, (STEPS,), "a")
    with pytest.raises(BeliefError, match="headline"):
        compare("w", {"a": _rows({0: 1})}, (STEPS,), "b")
    with pytest.raises(BeliefError, match="expected a number"):
        compare("w", {"a": _rows({0: "ten"})}, (STEPS,), "a")
    with pytest.raises(BeliefError, match="not ci95"):
        compare("w", {"a": _rows({0: 1}, "n")}, (Metric("n", True, "x"),), "a")


def test_the_validator_rejects_other_shapes():
    good = compare("toy_v0", {"a": _rows({0: 1, 1: 2}), "b": _rows({0: 3, 1: 5})}, (STEPS,), "a")
    validate_bench_json(good)
    old_household = {"episodes": 2, "by_agent": {"a": {"steps": 1.5, "ci95": [0, 3]}},
                     "diff_vs": {"a": {"b": {"steps_diff": -2, "ci95": [-3, -1], "ordering": "<"}}}}
    bad_ordering = {**good, "diff_vs": {"b": {"steps": {**good["diff_vs"]["b"]["steps"], "ordering": "<"}}}}
    claims_order = {**good, "diff_vs": {"b": {"steps": {"mean": -2.5, "ci95": [-9, 4], "ordering": "headline better",
                                                        "n": 2}}}}
    missing_ci = {**good, "by_agent": {**good["by_agent"], "a": {k: v for k, v in good["by_agent"]["a"].items() if k != "ci95"}}}
    for bad in (old_household, bad_ordering, claims_order, missing_ci, {**good, "headline": "zz"}):
        with pytest.raises(BenchShapeError):
            validate_bench_json(bad)
