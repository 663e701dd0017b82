"""Every message storage and its commands can produce exists in English and Dutch, with the same
placeholders."""

import re
import string
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, catalog

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = [
    ROOT / "bot" / "profile_text.py",
    *(ROOT / "bot" / "commands" / f"{name}.py" for name in ("profile", "history", "data")),
]


def found(pattern: str, paths: list[Path]) -> set[str]:
    return {key for path in paths for key in re.findall(pattern, path.read_text())}


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


STORAGE_CODES = found(
    r'(?:StorageError|_fail)\(\s*"([a-z_0-9]+)"', list((ROOT / "storage").rglob("*.py"))
)
COMMAND_CODES = found(r'(?:Estimator|Storage)Error\(\s*"([a-z_0-9]+)"', COMMANDS)
KEYS = found(r'\bt\(\s*"([a-z_0-9.]+)"', COMMANDS) | found(r"\bt\(\s*'([a-z_0-9.]+)'", COMMANDS)


def test_the_scan_finds_the_code():
    assert {"db_unavailable", "profile_not_found", "text_too_long"} <= STORAGE_CODES
    assert {"unknown_gpu", "profile_no_hardware"} <= COMMAND_CODES
    assert {"profile.saved", "history.line", "forget.confirm", "error.forget_needs_yes"} <= KEYS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_has_a_message(lang: str):
    missing = {c for c in STORAGE_CODES | COMMAND_CODES if f"error.{c}" not in catalog(lang)}
    assert not missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_commands_use_exists(lang: str):
    assert not {k for k in KEYS if k not in catalog(lang)}


def test_dutch_fills_in_the_same_placeholders():
    keys = KEYS | {f"error.{c}" for c in STORAGE_CODES | COMMAND_CODES}
    en, nl = catalog("en"), catalog("nl")
    assert {k for k in keys if placeholders(en[k]) != placeholders(nl[k])} == set()
