"""The lexicons: one per language, each saying every concept in its own words, so a new
language is a lexicon (plus a catalog and a phrasing table), not changes to the parser."""

import re

import pytest

from bot import lexicon as lx
from bot.lexicon import terms


@pytest.mark.parametrize("lex", lx.lexicons(), ids=lambda lex: lex.code)
def test_every_language_says_every_concept(lex):
    missing = lx.LANGUAGE_CONCEPTS - set(lex.phrases)
    unknown = set(lex.phrases) - lx.LANGUAGE_CONCEPTS - set(terms.TERMS)
    assert (missing, unknown) == (set(), set())
    for concept, fragments in lex.phrases.items():
        for fragment in fragments:
            assert re.compile(fragment), (concept, fragment)
    assert lex.function_words and lex.strong_words and lex.number_words


def test_the_two_languages_share_no_strong_word():
    en, nl = lx.by_code()["en"], lx.by_code()["nl"]
    assert en.strong_words.isdisjoint(nl.strong_words)


def test_a_concept_matches_in_any_language():
    """People mix languages: a Dutch word in an English sentence still reads."""
    assert lx.search("without", "lora on llama zonder gradient checkpointing")
    assert lx.search("without", "lora op llama without gradient checkpointing")


def test_within_a_kind_the_more_specific_term_wins():
    found = [
        value
        for value, concept in lx.variants("optimizer")
        if lx.search(concept, "paged adamw 8bit")
    ]
    assert found[0] == "paged_adamw_8bit"


def test_an_unknown_concept_is_an_error_not_silence():
    with pytest.raises(KeyError):
        lx.fragment("no_such_concept")
