"""The distribution: the wheel `python -m build` makes installs into a fresh venv and runs there.

Offline and in seconds: the wheel is built without build isolation (setuptools and build come
from the dev extras), and the fresh venv gets only the wheel, installed with `--no-index`. Its
dependencies are the dev venv's, seen through a .pth file, so what runs there is the wheel's
own code and data (catalogs, message catalogs, migrations) and the dev venv's third-party
packages; `pip check` then holds the wheel's declared requirements against them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
from pathlib import Path

import pytest

import bot

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SOURCES = ["pyproject.toml", "README.md", "LICENSE", "estimator", "rules", "bot", "storage"]


def _run(*argv: str | Path, cwd: Path | None = None) -> str:
    """Runs a command outside the checkout (in the checkout, `python -c` would import the
    packages from the working directory rather than from the wheel)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(a) for a in argv],
        cwd=cwd or Path(tempfile.gettempdir()),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"{argv}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("build") is None:
        pytest.skip("the `build` package is not installed (pip install -e '.[dev]' brings it)")
    # A copy of the sources, so that the build writes its build/ and egg-info there and not
    # into the checkout.
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(path, src / name)
    out = tmp_path_factory.mktemp("dist")
    _run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", out, ".", cwd=src)
    (found,) = out.glob("llm_sizer-*.whl")
    return found


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("venv")
    _run(sys.executable, "-m", "venv", "--without-pip", root)
    python = root / "bin" / "python"
    site = Path(
        _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    )
    (site / "dev-venv-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run(
        sys.executable, "-m", "pip", "--python", python, "install", "--no-index", "--no-deps",
        "--quiet", wheel,
    )  # fmt: skip
    return root


def test_the_wheel_declares_mit_and_carries_the_licence(wheel: Path) -> None:
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    text = metadata.decode()
    assert "License-Expression: MIT" in text
    assert f"Version: {bot.__version__}" in text
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    for data in ("bot/i18n/nl.json", "storage/migrations/env.py", "bot/__main__.py"):
        assert data in names, data
    assert any(n.startswith("estimator/data/") and n.endswith(".json") for n in names)


def test_the_installed_wheel_answers_from_its_own_files(venv: Path) -> None:
    out = _run(
        venv / "bin" / "llm-sizer", "estimate", "--model", "qwen2.5-7b", "--task", "inference",
        "--gpu", "4090", "--json",
    )  # fmt: skip
    data = json.loads(out)
    # Qwen2.5-7B's parameters from its config: 7,615,616,512 (the catalog's exact count).
    assert data["inputs"]["params"] == 7_615_616_512
    assert data["verdict"] == "fits"
    where = _run(venv / "bin" / "python", "-c", "import bot, estimator; print(bot.__file__)")
    assert where.strip().startswith(str(venv)), "the package must come from the wheel"
    assert _run(venv / "bin" / "python", "-m", "bot", "--version").strip() == (
        f"llm-sizer {bot.__version__}"
    )


def test_the_installed_wheels_requirements_are_met(venv: Path) -> None:
    _run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "check")


def test_one_version_source() -> None:
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "bot.__version__"}


def test_the_licence_is_an_spdx_expression_the_backend_supports() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    # SPDX `license` strings and `license-files` arrived in setuptools 77.
    (backend,) = PYPROJECT["build-system"]["requires"]
    assert backend.startswith("setuptools>=77") and "<" in backend


def _declared() -> set[str]:
    import re

    names = PYPROJECT["project"]["dependencies"]
    return {re.split(r"[\[<>=!~; ]", n, maxsplit=1)[0].lower().replace("_", "-") for n in names}


def test_every_third_party_import_of_the_product_is_a_declared_dependency() -> None:
    """A module imported only because another dependency happens to bring it (httpx through
    python-telegram-bot) breaks when that one stops; the wheel's venv above borrows the dev
    venv's packages and so cannot notice."""
    import ast
    from importlib.metadata import packages_distributions

    ours = {"estimator", "rules", "bot", "storage"}
    imported: dict[str, str] = {}
    for package in ours:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    tops = [a.name.split(".")[0] for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    tops = [node.module.split(".")[0]]
                else:
                    continue
                for top in tops:
                    if top not in ours and top not in sys.stdlib_module_names:
                        imported.setdefault(top, str(path.relative_to(ROOT)))
    owners = packages_distributions()
    declared = _declared()
    missing = {
        top: where
        for top, where in imported.items()
        if not {d.lower().replace("_", "-") for d in owners.get(top, [top])} & declared
    }
    assert not missing, missing
