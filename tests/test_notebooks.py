"""The notebooks run top to bottom (nbclient) in a fresh kernel of this interpreter, offline, in a temp dir.

The kernel is ipykernel's ``python3`` spec, written for ``sys.executable`` into a private JUPYTER_PATH so a
user-level spec for another Python cannot shadow it. Notebooks are committed without outputs.
"""

import json
import os
import sys
from pathlib import Path

import nbformat
import pytest
from ipykernel.kernelspec import write_kernel_spec
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
TIMEOUT = 300  # seconds per cell, generous for a loaded 2-core machine; the notebooks take about a minute


def test_there_are_a_walkthrough_and_a_benchmark_notebook():
    assert {p.stem for p in NOTEBOOKS} >= {"walkthrough", "benchmarks"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: clear the outputs"


def _imports_only_the_package(nb) -> None:
    """The notebooks use the installed package, never the test suite or the source tree's paths."""
    source = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "sys.path" not in source and "tests." not in source and "/work/" not in source


@pytest.fixture(scope="module")
def kernel_env(tmp_path_factory):
    jupyter = tmp_path_factory.mktemp("jupyter")
    spec = write_kernel_spec(jupyter / "kernels" / "python3")
    argv = json.loads((Path(spec) / "kernel.json").read_text())["argv"]
    assert argv[0] == sys.executable
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "BELIEF_"))}
    env.update({"JUPYTER_PATH": str(jupyter), "MPLBACKEND": "Agg", "PYDEVD_DISABLE_FILE_VALIDATION": "1"})
    return env


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes_without_errors(path, kernel_env, tmp_path, monkeypatch):
    for key, value in kernel_env.items():
        monkeypatch.setenv(key, value)
    for key in [k for k in os.environ if k.startswith(("OPENAI_", "BELIEF_"))]:
        monkeypatch.delenv(key)
    nb = nbformat.read(path, as_version=4)
    _imports_only_the_package(nb)
    client = NotebookClient(nb, timeout=TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except CellExecutionError as e:  # the failing cell and its traceback
        pytest.fail(f"{path.name}: {e}")
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if o.output_type == "display_data" and "image/png" in o.get("data", {})]
    assert len(images) >= 2, f"{path.name}: expected its figures as PNG outputs"
    assert list(tmp_path.iterdir()) == [] or all(p.name.startswith(".") for p in tmp_path.iterdir())
