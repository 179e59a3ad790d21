"""The installed package works without a checkout: a wheel built from the working tree (and one built from its
source distribution) carries the dbt project, and installed in a fresh virtual environment outside the checkout
it runs `import-pairs -> build -> summary` from an empty folder, writing nothing into the installed package.

The fresh environment gets the dependencies by a path entry pointing at this venv's site-packages, added only
after the wheel is installed (so pip never sees, let alone touches, this venv's editable install); path entries
do not run that folder's .pth files, so the editable install's finder (which maps `biasmirror` to the checkout)
is not active there, and the test checks that `biasmirror` is imported from the fresh environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import duckdb
import numpy as np
import pytest

from pair_references import random_pairs, reference_paired_metrics

REPO = Path(__file__).resolve().parents[2]
PROJECT_FILES = ("dbt_project.yml", "profiles.yml")
PROJECT_FOLDERS = ("models", "macros", "seeds", "analyses", "tests/dbt")  # dbt_project.yml's paths

pytestmark = pytest.mark.slow


def _git_files() -> list[str]:
    """The working tree's files as a build sees them: tracked, plus new files git does not ignore."""
    listing = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True).stdout.decode()
    return [name for name in listing.split("\0") if name and (REPO / name).is_file()]


def _project_files() -> dict[str, bytes]:
    """Every file of the dbt project in the checkout (relative path -> bytes)."""
    files = {name: (REPO / name).read_bytes() for name in PROJECT_FILES}
    for name in _git_files():
        if any(name.startswith(folder + "/") for folder in PROJECT_FOLDERS):
            files[name] = (REPO / name).read_bytes()
    return files


def _run(argv: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 900) -> subprocess.CompletedProcess:
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{argv} exited {result.returncode}\nstdout:\n{result.stdout[-4000:]}\nstderr:\n{result.stderr[-4000:]}"
    return result


@pytest.fixture(scope="module")
def source_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the working tree's files (a build writes build/ and *.egg-info into its source folder)."""
    root = tmp_path_factory.mktemp("source")
    for name in _git_files():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((REPO / name).read_bytes())
    return root


@pytest.fixture(scope="module")
def wheel(source_tree: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
          "--wheel-dir", str(dist), str(source_tree)], cwd=dist)
    (built,) = dist.glob("biasmirror-*.whl")
    return built


def _wheel_project(path: Path) -> dict[str, bytes]:
    prefix = "biasmirror/_project/"
    with zipfile.ZipFile(path) as archive:
        return {name[len(prefix):]: archive.read(name) for name in archive.namelist() if name.startswith(prefix)}


def test_the_wheel_carries_the_dbt_project_byte_for_byte(wheel: Path) -> None:
    expected = _project_files()
    carried = _wheel_project(wheel)
    assert set(carried) == set(expected), (sorted(set(expected) - set(carried))[:10], sorted(set(carried) - set(expected))[:10])
    assert all(carried[name] == expected[name] for name in expected)
    # the contract the Python writers read, and the dbt-duckdb plugin profiles.yml loads
    assert "models/staging/inference/_inference__sources.yml" in carried
    assert b"module: biasmirror.warehouse.dbt_plugin" in carried["profiles.yml"]
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        version = next(line.split(":", 1)[1].strip() for line in archive.read(metadata).decode().splitlines()
                       if line.startswith("Version:"))
    assert "biasmirror/warehouse/dbt_plugin.py" in names
    # every module of the package (pyproject.toml lists the subpackages by name: a new one must be added there)
    modules = {name[len("inference/"):] for name in _git_files()
               if name.startswith("inference/biasmirror/") and name.endswith(".py")}
    assert modules and not modules - names, sorted(modules - names)
    assert f'version = "{version}"' in (REPO / "pyproject.toml").read_text()


def test_a_wheel_built_from_the_source_distribution_carries_the_same_project(source_tree: Path, wheel: Path,
                                                                              tmp_path: Path) -> None:
    """`pip install biasmirror-<v>.tar.gz` builds the wheel from the sdist: the sdist must carry the project."""
    _run([sys.executable, "-c", "import sys; from setuptools import build_meta; build_meta.build_sdist(sys.argv[1])",
          str(tmp_path)], cwd=source_tree)
    (sdist,) = tmp_path.glob("biasmirror-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    out = tmp_path / "from-sdist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
          "--wheel-dir", str(out), str(unpacked)], cwd=tmp_path)
    (rebuilt,) = out.glob("biasmirror-*.whl")
    assert _wheel_project(rebuilt) == _wheel_project(wheel)


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment outside the checkout with the wheel installed; returns its python."""
    venv = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", "--clear", str(venv)], cwd=venv)
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "--quiet",
          str(wheel)], cwd=venv)
    purelib = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=venv).stdout.strip())
    # the dependencies: this venv's site-packages as a plain path entry (its .pth files are not run from there)
    (purelib / "zz_biasmirror_test_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return python


def _clean_env(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("BIASMIRROR_", "DBT_", "PYTHON", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), BIASMIRROR_THREADS="1")
    return env


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder with its size and modification time (Python's own bytecode caches left out)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")
            if "__pycache__" not in p.parts}


def test_import_build_summary_from_an_empty_folder(installed: Path, tmp_path: Path) -> None:
    home, work, data = tmp_path / "home", tmp_path / "empty", tmp_path / "data"
    for folder in (home, work, data):
        folder.mkdir()
    env = _clean_env(home)
    biasmirror = str(installed.parent / "biasmirror")

    # the package is the wheel's, its project is the copy it carries, and the checkout is nowhere on the path
    probe = json.loads(_run([str(installed), "-c",
        "import json, sys, importlib.metadata as m, biasmirror, biasmirror.paths as p, biasmirror.warehouse.dbt_plugin as d;"
        "print(json.dumps({'module': biasmirror.__file__, 'plugin': d.__file__, 'project': str(p.project_dir()),"
        "'version': biasmirror.__version__, 'metadata': m.version('biasmirror'), 'path': sys.path}))"],
        cwd=work, env=env).stdout)
    site = Path(probe["module"]).parent
    assert site.is_relative_to(installed.parent.parent) and Path(probe["plugin"]).is_relative_to(site)
    assert Path(probe["project"]) == site / "_project"
    checkout = {REPO, REPO / "inference", REPO / "inference" / "biasmirror"}
    assert not [entry for entry in probe["path"] if entry and Path(entry).resolve() in checkout], probe["path"]
    assert probe["version"] == probe["metadata"]
    package_before = _snapshot(site)

    version = _run([biasmirror, "--version"], cwd=work, env=env).stdout.strip()
    assert version == f"biasmirror {probe['metadata']}"

    pairs = random_pairs(np.random.default_rng(23), 500, shift_probability=0.2, female_bias=0.25,
                         strata={"site": ["north", "south"]})
    pairs.to_csv(data / "pairs.csv", index=False)
    imported = _run([biasmirror, "import-pairs", str(data / "pairs.csv"), "--dataset", "wheel", "--model", "m"],
                    cwd=work, env=env)
    assert "Imported 500 pairs" in imported.stdout
    _run([biasmirror, "build", "--resamples", "200"], cwd=work, env=env)
    summary = _run([biasmirror, "summary", "--dataset", "wheel"], cwd=work, env=env).stdout
    assert "pooled_rate" in summary and "n=500" in summary

    # the metrics are right (numpy reference), and the Python API of the installed package reads them
    reference = reference_paired_metrics(pairs.original_sex, pairs.original_level, pairs.counterfactual_level)
    with duckdb.connect(str(work / "biasmirror.duckdb"), read_only=True) as con:
        built = dict(con.execute("select metric, estimate from audit.paired_metrics where dataset = 'wheel' "
                                 "and stratum_name = 'overall'").fetchall())
    for metric in ("pooled_rate", "nmd", "pdr", "dts_m_to_f", "dts_f_to_m"):
        assert built[metric] == pytest.approx(reference[metric], abs=1e-9), metric
    api = json.loads(_run([str(installed), "-c",
        "import json; from biasmirror import Warehouse;"
        "f = Warehouse('biasmirror.duckdb').paired_metrics(dataset='wheel', stratum='overall', metric='pooled_rate');"
        "print(json.dumps(f[['setting', 'estimate']].to_dict('records')))"], cwd=work, env=env).stdout)
    assert api == [{"setting": "full", "estimate": pytest.approx(reference["pooled_rate"], abs=1e-9)}]

    # what the commands wrote is the warehouse and its working folder (dbt's target/ and logs/ inside), nothing
    # in the folder the user ran from, and nothing in the installed package
    assert sorted(p.name for p in work.iterdir()) == ["biasmirror.duckdb", "biasmirror.work"]
    assert (work / "biasmirror.work" / "dbt" / "target" / "manifest.json").is_file()
    assert (work / "biasmirror.work" / "dbt" / "logs" / "dbt.log").is_file()
    assert _snapshot(site) == package_before
    assert not list(home.iterdir())
