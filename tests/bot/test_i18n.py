"""Both catalogs cover every message the code can produce, with the same placeholders."""

import re
import string
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, catalog, t

ROOT = Path(__file__).resolve().parents[2]


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def _codes(pattern: str) -> set[str]:
    found = set()
    for path in (ROOT / "estimator").rglob("*.py"):
        found |= set(re.findall(pattern, path.read_text()))
    for path in (ROOT / "bot").rglob("*.py"):
        found |= set(re.findall(pattern, path.read_text()))
    return found


def test_languages_have_the_same_keys_and_placeholders():
    en, nl = catalog("en"), catalog("nl")
    assert set(en) == set(nl)
    for key in en:
        assert _placeholders(en[key]) == _placeholders(nl[key]), key


def test_every_error_code_has_a_message():
    for code in _codes(r'EstimatorError\(\s*"([a-z_0-9]+)"'):
        for lang in LANGUAGES:
            assert f"error.{code}" in catalog(lang), code


def test_every_note_has_a_sentence():
    keys = _codes(r'Note\(\s*"([a-z_0-9]+)"')
    for key in keys:
        for lang in LANGUAGES:
            texts = [
                k
                for k in catalog(lang)
                if k in (f"step.{key}", f"assume.{key}") or k.startswith(f"step.{key}.")
            ]
            assert texts, key


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [("en", "1 sequence =", "8 sequences ="), ("nl", "1 reeks =", "8 reeksen =")],
)
def test_plurals_follow_the_number(lang, one, many):
    params = dict(weights="1 GiB", kv="2 GiB", bytes="3 GiB")
    assert one in t("step.decode_bytes", lang, sequences="1", **params)
    assert many in t("step.decode_bytes", lang, sequences=8, **params)
    assert "(s)" not in t("step.decode_bytes", lang, sequences=8, **params)
