"""Tests mirror the code: every test module under tests/ is named after a source module (or
package) at the same path, or is one of the exceptions tests/README.md lists under "Layout"."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
README = TESTS / "README.md"


def exceptions() -> set[str]:
    """The test modules the README's "Layout" section lists as cross-cutting."""
    section = README.read_text().split("## Layout", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^- `(tests/[^`]+\.py)`", section, flags=re.M))


def sources(folder: Path) -> set[str]:
    """Names a test module in the mirror of `folder` may take: its modules and its packages."""
    if not folder.is_dir():
        return set()
    names = {path.stem for path in folder.glob("*.py") if path.stem != "__init__"}
    for path in folder.iterdir():
        package = (path / "__init__.py").is_file()
        inside = folder != ROOT and any(path.rglob("*.py"))  # storage/migrations has no __init__
        if path.is_dir() and path != TESTS and (package or inside):
            names.add(path.name)
    return names


def mirrors(test: Path) -> bool:
    """tests/<path>/test_<module>[_<topic>].py with <path>/<module>.py or <path>/<module>/."""
    name = test.stem.removeprefix("test_")
    folder = ROOT / test.parent.relative_to(TESTS)
    return any(name == module or name.startswith(module + "_") for module in sources(folder))


def modules_under_test() -> list[Path]:
    return sorted(path for path in TESTS.rglob("test_*.py") if "fixtures" not in path.parts)


def test_every_test_module_mirrors_a_source_module_or_is_a_listed_exception() -> None:
    listed = exceptions()
    stray = [
        str(path.relative_to(ROOT))
        for path in modules_under_test()
        if not mirrors(path) and str(path.relative_to(ROOT)) not in listed
    ]
    assert not stray, f"name these after the module they test, or list them in {README.name}"


def test_the_exceptions_exist_and_are_exceptions() -> None:
    listed = exceptions()
    assert listed, "the Layout section lists no exceptions"
    for name in sorted(listed):
        path = ROOT / name
        assert path.is_file(), f"{name} is listed in {README.name} but does not exist"
        assert not mirrors(path), f"{name} mirrors a source module: no exception needed"


def test_the_rule_reads_names_as_the_readme_says() -> None:
    assert mirrors(TESTS / "bot" / "telegram" / "test_ordering.py")
    assert mirrors(TESTS / "bot" / "test_detect.py")
    assert mirrors(TESTS / "bot" / "commands" / "test_estimate_training.py")
    assert not mirrors(TESTS / "bot" / "test_reading_the_question.py")
    assert not mirrors(TESTS / "nowhere" / "test_estimate.py")
