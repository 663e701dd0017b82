"""Amounts in a question: the context (sequence) length, concurrent users, the training data
(examples, tokens per example, epochs, or its size in tokens), the electricity price, a budget
for hardware, and the rows and features of a classical machine-learning data set.

Token counts use binary k for a context (32k = 32,768, as engines and model cards count) and
decimal k for data ("10k examples of 1k tokens" is ten million tokens). A value outside its
range is refused with the range, never replaced.
"""

from __future__ import annotations

import re

from estimator.models.sizes import MAX_SIZE
from estimator.vocabulary import (
    MAX_CONTEXT,
    MAX_EPOCHS,
    MAX_EXAMPLES,
    MAX_FEATURES,
    MAX_ROWS,
    MAX_SEQUENCES,
    MAX_TRAINING_TOKENS,
)

from .. import lexicon as lx
from .parse_numbers import number
from .parse_task import blank
from .preferences import MAX_KWH_PRICE
from .reading import Found

_SCALE = r"(k|m|mln|b|thousand|million|billion|duizend|miljoen|miljard)"
# A number with an optional scale: 32k, 8192, 1.5M, "2,5 miljoen".
NUMBER = r"(\d+(?:[.,]\d{1,6})?)\s*" + _SCALE + r"?(?![\w])"
# "around 2000 tokens", "ongeveer 2000": words before an amount that only qualify it.
_APPROX = r"(?:" + lx.fragment("approx") + r"\s*)*"
# "context of 8k", "epochs: 3", "batch = 4".
_LINK = r"(?:" + lx.fragment("amount_link") + r"|[=:])"
_LARGE_SCALES = frozenset({"m", "mln", "b", "million", "billion", "miljoen", "miljard"})


def _value(m: re.Match[str], group: int, *, binary: bool) -> float | None:
    return number(m.group(group), m.group(group + 1), binary=binary)


def context(low: str, found: Found) -> str:
    """The context or sequence length; returns the text with it blanked."""
    words = lx.fragment("context_word")
    seq = lx.fragment("sequence_length")
    tokens = lx.fragment("tokens")
    patterns = (
        rf"(?<![\w.,]){NUMBER}\s*(?:-?\s*{tokens}\s*)?(?:{words})(?![\w])",
        rf"(?<![\w])(?:{words}|{seq})\s*{_LINK}?\s*"
        rf"{_APPROX}{NUMBER}(?:\s*{tokens})?(?![\w])",
        rf"(?<![\w.,]){NUMBER}\s*(?:-?\s*{tokens}\s*)?{lx.fragment('sequences')}(?![\w])",
        # After "sequence length 512", so "batch 8 sequence length 512" is not 8 tokens.
        rf"(?<![\w.,]){NUMBER}\s*(?:-?\s*{tokens}\s*)?{lx.fragment('length_after')}(?![\w])",
    )
    for pattern in patterns:
        m = re.search(pattern, low)
        if m is None:
            continue
        found.bounded("context", _value(m, 1, binary=True), m.group(), 1, MAX_CONTEXT)
        return blank(low, m)
    return low


def prompt_and_output(low: str, found: Found) -> str:
    """ "prompts of 1500 tokens, answers 300", "2k token prompts and 500 token outputs": a
    sequence holds its prompt and its answer, so the context is their sum. Only when both are
    said; a prompt alone is read as the context as before."""
    tokens = lx.fragment("tokens")
    link = rf"\s*{_LINK}?\s*{_APPROX}~?"
    found_lengths: list[re.Match[str]] = []
    for concept in ("prompt_word", "output_word"):
        word = lx.fragment(concept)
        # "1000 token prompt" before "prompt 200": a number right before the word is its own.
        m = re.search(
            rf"(?<![\w.,]){NUMBER}\s*-?\s*(?:{tokens}\s*)?(?:{word})(?![\w])", low
        ) or re.search(rf"(?<![\w])(?:{word}){link}{NUMBER}(?:\s*{tokens})?(?![\w])", low)
        if m is None or any(m.start() < n.end() and n.start() < m.end() for n in found_lengths):
            return low
        found_lengths.append(m)
    prompt, output = (_value(m, 1, binary=True) for m in found_lengths)
    if prompt is None or output is None:
        return low
    said = " + ".join(m.group().strip() for m in found_lengths)
    found.bounded("context", prompt + output, said, 1, MAX_CONTEXT)
    for m in sorted(found_lengths, key=lambda m: m.start(), reverse=True):
        low = blank(low, m)
    return low


def plain_tokens(low: str, found: Found) -> str:
    """ "with 4096 tokens", "8k tokens": a context, unless it is per second or data (millions)."""
    tokens = lx.fragment("tokens")
    for m in re.finditer(rf"(?<![\w.,]){NUMBER}\s*-?\s*{tokens}(?![\w])", low):
        after = low[m.end() : m.end() + 16]
        if re.match(r"^\s*(?:/|per\s+s|a\s+s|p/?s)", after):
            continue
        if m.group(2) in _LARGE_SCALES:
            continue
        found.bounded("context", _value(m, 1, binary=True), m.group(), 1, MAX_CONTEXT)
        return blank(low, m)
    return low


def bare_k(low: str, found: Found) -> str:
    """A bare "4k" or "32K" with nothing after it but a joining word: "..., 4k, op een 4090"."""
    joiner = lx.fragment("joiner")
    m = re.search(
        rf"(?<![\w.,$€£])(\d{{1,4}})\s*k(?![\w])(?=\s*(?:[,.;:!?)]|$|{joiner}(?![\w])))",
        low,
    )
    if m is None:
        return low
    found.bounded("context", number(m.group(1), "k", binary=True), m.group(), 1, MAX_CONTEXT)
    return blank(low, m)


def users(low: str, found: Found) -> None:
    # "20-30 using it at the same time": the people at once, the top of a range, before any
    # other count of people in the message (a team of 15, 200 employees in all).
    m = re.search(
        rf"(?<![\w.,-])(\d{{1,6}})(?:\s*-\s*(\d{{1,6}}))?\s+(?:[a-z']+\s+){{0,3}}?"
        rf"(?:{lx.fragment('at_once')})(?![\w])",
        low,
    )
    if m is not None:
        value = float(m.group(2) or m.group(1))
        found.bounded("concurrency", value, m.group(), 1, MAX_SEQUENCES)
        return
    concurrent = lx.fragment("concurrent")
    m = re.search(
        rf"(?<![\w.,-]){NUMBER}\s+(?:{concurrent}\s+)?(?:{lx.fragment('users')})(?![\w])"
        rf"|(?<![\w]){lx.fragment('concurrency_word')}\s*{_LINK}?\s*{NUMBER}",
        low,
    )
    if m is None:
        return
    group = 1 if m.group(1) is not None else 3
    found.bounded("concurrency", _value(m, group, binary=False), m.group(), 1, MAX_SEQUENCES)


def dataset(low: str, found: Found) -> str:
    """The training data: "50000 examples, each around 2000 tokens", "10k examples of 1k tokens,
    3 epochs", "on 20M tokens". Returns the text with these amounts blanked."""
    examples = lx.fragment("examples")
    tokens = lx.fragment("tokens")
    each = lx.fragment("each")
    m = re.search(rf"(?<![\w.,-]){NUMBER}\s+(?:{examples})(?![\w])", low)
    if m:
        found.bounded("examples", _value(m, 1, binary=False), m.group(), 1, MAX_EXAMPLES)
        rest = low[m.end() : m.end() + 80]
        per = re.search(
            rf"^[\s,]*(?:(?:{lx.fragment('amount_link')}|{lx.fragment('with')})\s+)?"
            rf"(?:{each}\s+)?{_APPROX}"
            rf"(?:(?:{each})\s+)?{NUMBER}\s*-?\s*{tokens}(?![\w])",
            rest,
        )
        low = blank(low, m)
        if per:
            _example_tokens(found, per, 1)
            low = low[: m.end()] + " " * per.end() + low[m.end() + per.end() :]
    if found.get("example_tokens") is None:
        per = re.search(
            rf"(?<![\w])(?:{each})\s+{_APPROX}{NUMBER}\s*-?\s*{tokens}(?![\w])"
            rf"|(?<![\w.,]){NUMBER}\s*-?\s*{tokens}\s+(?:{each})(?![\w])",
            low,
        )
        if per:
            _example_tokens(found, per, 1 if per.group(1) is not None else 3)
            low = blank(low, per)
    e = re.search(
        rf"(?<![\w.,-])(\d{{1,6}}(?:[.,]\d{{1,3}})?)\s*(?:{lx.fragment('epochs')})(?![\w])"
        rf"|(?<![\w])(?:{lx.fragment('epochs')})\s*{_LINK}?\s*(\d{{1,6}}(?:[.,]\d{{1,3}})?)(?![\w])",
        low,
    )
    if e:
        value = next(g for g in e.groups() if g is not None)
        found.bounded("epochs", number(value), e.group(), 0.01, MAX_EPOCHS)
        low = blank(low, e)
    total = re.search(rf"(?<![\w.,]){NUMBER}\s*-?\s*{tokens}(?![\w])", low)
    if total and total.group(2) in _LARGE_SCALES:
        found.bounded(
            "dataset_tokens", _value(total, 1, binary=False), total.group(), 1, MAX_TRAINING_TOKENS
        )
        low = blank(low, total)
    return low


def _example_tokens(found: Found, m: re.Match[str], group: int) -> None:
    found.bounded("example_tokens", _value(m, group, binary=False), m.group(), 1, MAX_CONTEXT)


def electricity(low: str, found: Found) -> str:
    """The price of a kWh: "0.35 per kWh", "€0,30/kWh", "35 cent per kWh", "electricity about
    0.35", "stroom kost 0,28". Cents are divided by 100; the currency is the user's."""
    currency = rf"(?:{lx.fragment('currency')}|{lx.fragment('euro')})"
    money = rf"{currency}?\s*"
    unit = rf"(?:\s*(?:{lx.fragment('cents')}|{currency}))?"
    m = re.search(
        rf"{money}(\d{{1,19}}(?:[.,]\d{{1,4}})?)({unit})\s*"
        rf"(?:per|/|{lx.fragment('article')}|{lx.fragment('place')})?\s*(?:1\s+)?kwh(?![\w])",
        low,
    ) or re.search(
        rf"(?<![\w])(?:{lx.fragment('electricity')})\s*(?:\w+\s+){{0,3}}?"
        rf"{money}(\d{{1,19}}(?:[.,]\d{{1,4}})?)({unit})(?![\w.,])",
        low,
    )
    if m is None:
        return low
    value = number(m.group(1))
    if value is not None and re.search(lx.fragment("cents"), m.group(2) or ""):
        value /= 100
    found.bounded("kwh_price", value, m.group(), 0, MAX_KWH_PRICE)
    return blank(low, m)


# Budgets from a used card to a workstation; below and above are typos or not a budget.
MIN_BUDGET = 50
MAX_BUDGET = 10_000_000
# An amount with cents or a k: "1.5k" is fifteen hundred. Digit groups ("1.200", "1,200") arrive
# ungrouped already (parse_numbers.plain).
_AMOUNT = r"(\d+(?:[.,]\d{1,2})?)\s*(k)?"
_NOT_A_UNIT = r"(?!\s*(?:gb|gib|tb|mb|tokens?|users?|w|watts?|%)(?![\w]))"
# The amount ends there: no letter or digit follows, nor a decimal or group mark with digits
# ("10k, which" ends at the comma; "1.5" does not end at its "1").
_ENDS = r"(?![\w]|[.,]\d)"


def _currency(said: str) -> str:
    if re.fullmatch(lx.fragment("euro"), said):
        return "EUR"
    return "GBP" if re.fullmatch(lx.fragment("pound"), said) else "USD"


def budget(low: str, found: Found) -> str:
    """A budget for buying hardware: "for 1000 euro", "under $2000", "€1.200", "2k usd",
    "budget of 1500", "3000 bucks", in the currency said (dollars when none is). A price per
    hour or month ("$2/hour") is a rent, not a budget."""
    money = rf"(?:{lx.fragment('dollar')}|{lx.fragment('euro')}|{lx.fragment('pound')})"
    rent = rf"(?!\s*(?:{lx.fragment('per_period')})(?![\w]))"
    first = re.search(rf"(?<![\w.,])({money})\s*{_AMOUNT}{_ENDS}{rent}", low)
    after = re.search(rf"(?<![\w.,]){_AMOUNT}\s*({money})(?![\w]){rent}", low)
    worded = re.search(
        rf"(?<![\w])(?:{lx.fragment('budget')})\s*(?:\w+\s+){{0,2}}?{_AMOUNT}"
        rf"{_ENDS}{_NOT_A_UNIT}{rent}",
        low,
    )
    if first is not None:
        m, value, currency = first, _value(first, 2, binary=False), _currency(first.group(1))
    elif after is not None:
        m, value, currency = after, _value(after, 1, binary=False), _currency(after.group(3))
    elif worded is not None:
        m, value, currency = worded, _value(worded, 1, binary=False), None
    else:
        return low
    if found.bounded("budget", value, m.group(), MIN_BUDGET, MAX_BUDGET) and currency:
        found.set("budget_currency", currency)
    return blank(low, m)


def classical(low: str, found: Found) -> None:
    m = re.search(rf"(?<![\w.,-]){NUMBER}\s*(?:{lx.fragment('rows')})(?![\w])", low)
    if m:
        found.bounded("rows", _value(m, 1, binary=False), m.group(), 1, MAX_ROWS)
    m = re.search(rf"(?<![\w.,-]){NUMBER}\s*(?:{lx.fragment('features')})(?![\w])", low)
    if m:
        found.bounded("features", _value(m, 1, binary=False), m.group(), 1, MAX_FEATURES)
    m = re.search(rf"(?<![\w.,-]){NUMBER}\s*{lx.fragment('parameters')}(?![\w])", low)
    if m:
        value = _value(m, 1, binary=False)
        found.bounded("ml_params", value, m.group(), 1, MAX_SIZE)
    if lx.search("retrain", low):
        found.set("retrain_often", True)
