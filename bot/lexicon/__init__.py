"""The words questions use: one lexicon per language (`en`, `nl`) and the technical terms every
language shares (`terms`: engines, formats, frameworks, optimizers).

Each concept is a tuple of regular-expression fragments. The parser matches a concept with the
union over every lexicon, because people mix languages ("full finetune ... met zero-3"); the
function words and the other words of each lexicon tell which language a message is in.
Adding a language is a lexicon here (every concept in LANGUAGE_CONCEPTS filled), a message
catalog in bot/i18n and a phrasing table in the tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from ..i18n import Language

# What every language lexicon must say, in its own words (a tuple may be empty where a language
# has no word of its own and uses the shared technical term).
LANGUAGE_CONCEPTS = frozenset(
    {
        # task and method
        "training",
        "inference",
        "running_question",
        "fine_tuned",
        "full",
        "freeze",
        # how a setting is switched
        "negation",
        "without",
        "with",
        "off",
        "on",
        # training settings
        "stage",
        "offload",
        "offload_target_cpu",
        "offload_target_nvme",
        "all_linear",
        "attention_only",
        "rank",
        "batch",
        "not_micro_batch",
        "accumulation",
        "sequence_length",
        # a sequence length named after its number ("4k seq len")
        "length_after",
        "context_word",
        "prompt_word",
        "output_word",
        "tokens",
        "examples",
        "each",
        "epochs",
        "dataset",
        "electricity",
        "cents",
        "euro",
        # what the model is for, when no model is named ("a coding model", "for images")
        "coding",
        "vision_use",
        # a budget for buying hardware, and the currency it is said in
        "budget",
        "dollar",
        "pound",
        "per_period",
        # precisions said in words
        "half_precision",
        "full_precision",
        "bits",
        # hardware words that are not hardware names
        "laptop",
        "cpu_only",
        "cloud",
        "cheapest",
        "my",
        "own_hardware",
        "generic_machine",
        # inverse questions
        "biggest",
        "what_runs",
        "faster",
        "needed",
        "longest",
        # after "what context": asking how much of it the hardware gives ("can I get")
        "context_on_offer",
        "how_many",
        "batch_question",
        "users",
        "which",
        "quantization_word",
        "smallest",
        "gpu_word",
        "model_word",
        # classical machine learning
        "classical",
        "neural_net",
        "rows",
        "features",
        "retrain",
        "ram_question",
        # conversation acts
        "greeting",
        "help",
        "thanks",
        # a message that continues the previous question ("and with QLoRA?")
        "follow_up",
        # comparisons
        "or",
        "better",
        # words between two compared options ("an L4 or a T4")
        "filler",
        # what may follow a bare "4k" that makes it a context length
        "joiner",
        # small words between a name and its amount ("context of 8k", "epochs: 3")
        "amount_link",
        "toward",
        "sequences",
        "parameters",
        "approx",
        "article",
        "concurrent",
        # after an amount of people: "20-30 using it at the same time"
        "at_once",
        "concurrency_word",
        # a comparison's option ends before these ("instead of", "better than")
        "option_stop",
        # "the highest I can set" (after a context setting: the longest context that fits)
        "highest_setting",
        # "between X and Y" compares X and Y
        "between",
        "and",
        # before "my X" when naming a saved machine ("on my mac"), and after it when
        # describing one ("my pc has ..."); words after "my" that are no machine's name
        "place",
        "describes",
        "not_a_name",
        # everyday words within a typo of a model family's name ("internal" of InternLM,
        # "minimal" of MiniMax): never read as a misspelt model
        "everyday",
        # words that may stand beside a greeting or thanks
        "courtesy",
        # commands said as words
        "reset",
        "details",
    }
)


def words(text: str) -> frozenset[str]:
    """The words of `text`, split at white space: a list of words written as one string."""
    return frozenset(text.split())


@dataclass(frozen=True, slots=True)
class Lexicon:
    code: Language
    function_words: frozenset[str]  # frequent words only this language uses
    # Words no speaker of the other language would use ("hoi", "bedankt", "the"): each one
    # alone says the language ("thanks" and "ok" are not among them: Dutch uses them too).
    strong_words: frozenset[str]
    number_words: Mapping[str, int]  # "six": 6, "vijftig": 50
    scale_words: Mapping[str, int]  # "thousand": 1000
    phrases: Mapping[str, tuple[str, ...]]


@cache
def lexicons() -> tuple[Lexicon, ...]:
    from . import en, nl

    return (en.LEXICON, nl.LEXICON)


@cache
def by_code() -> dict[str, Lexicon]:
    return {lex.code: lex for lex in lexicons()}


@cache
def fragment(concept: str) -> str:
    """The concept's words in every language and the shared terms, as one alternation."""
    from . import terms

    parts: list[str] = []
    for lex in lexicons():
        parts += lex.phrases.get(concept, ())
    parts += terms.TERMS.get(concept, ())
    if concept not in LANGUAGE_CONCEPTS and concept not in terms.TERMS:
        raise KeyError(concept)
    # Longest first, so "adamw 8bit" wins over "adamw" inside one alternation.
    unique = sorted(set(parts), key=len, reverse=True)
    return "(?:" + "|".join(unique) + ")" if unique else "(?!x)x"


@cache
def pattern(concept: str) -> re.Pattern[str]:
    """The concept as whole words."""
    return re.compile(r"(?<![\w])" + fragment(concept) + r"(?![\w])")


def search(concept: str, text: str) -> re.Match[str] | None:
    return pattern(concept).search(text)


def finditer(concept: str, text: str) -> Iterator[re.Match[str]]:
    return pattern(concept).finditer(text)


@cache
def variants(prefix: str) -> tuple[tuple[str, str], ...]:
    """(value, concept) for the concepts named "prefix:value" ("engine:vllm"), in the order
    the shared terms list them: earlier ones are tried first."""
    from . import terms

    return tuple((c.split(":", 1)[1], c) for c in terms.TERMS if c.startswith(prefix + ":"))


@cache
def number_words() -> dict[str, int]:
    """Every language's number words ("six", "zes"), for counts and amounts."""
    out: dict[str, int] = {}
    for lex in lexicons():
        out.update(lex.number_words)
    return out


@cache
def scale_words() -> dict[str, int]:
    out: dict[str, int] = {}
    for lex in lexicons():
        out.update(lex.scale_words)
    return out


__all__ = [
    "LANGUAGE_CONCEPTS",
    "Lexicon",
    "by_code",
    "finditer",
    "fragment",
    "lexicons",
    "number_words",
    "pattern",
    "scale_words",
    "search",
    "variants",
    "words",
]
