"""Numbers as people write them, made plain before the slots are read: number words ("six",
"fifty thousand", "vijftigduizend", "tweeëntwintig"), digit groups ("50,000", "50.000"), powers
("10^12", "1e12"); and a bounded reading of a number with its scale ("32k", "1.5M").

A number is never read past MAX_DIGITS digits: "1" followed by 400 zeros is too large for any
slot (and would overflow a float), so it reads as None and the slot refuses it with its range.
"""

from __future__ import annotations

import re
from functools import cache

from ..lexicon import number_words, scale_words

MAX_DIGITS = 18
# An exponent beyond this is spelt as a number with more than MAX_DIGITS digits: too large.
_MAX_EXPONENT = MAX_DIGITS + 1
BINARY = {"k": 1024, "m": 1024**2}
DECIMAL = {"k": 1000, "m": 1000**2, "mln": 1000**2, "b": 1000**3, **scale_words()}

_GROUPED = re.compile(r"(?<![\w.,])([1-9]\d{0,2})((?:([.,])\d{3})(?:\3\d{3})*)(?![\d]|[.,]\d)")
_POWER = re.compile(r"(?<![\w.])(\d{1,3})\s*(?:\^|\*\*)\s*(\d{1,4})(?![\w.])")
_SCIENTIFIC = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d+)?)e\+?(\d{1,4})(?![\w.])")
# "one" and "een" are also the article: only next to another number word do they count.
_ARTICLES = {"a": 1, "an": 1, "one": 1, "een": 1, "één": 1}
_JOINERS = {"and", "en", "-"}


def plain(text: str) -> str:
    """`text` with its numbers in digits: "fifty thousand examples" -> "50000 examples"."""
    text = _POWER.sub(_power, text)
    text = _SCIENTIFIC.sub(_scientific, text)
    text = _GROUPED.sub(_ungroup, text)
    return _words(text)


def _spelt(value: int) -> str:
    return str(value) if len(str(value)) <= MAX_DIGITS else "9" * (MAX_DIGITS + 1)


def _power(m: re.Match[str]) -> str:
    base, exponent = int(m.group(1)), int(m.group(2))
    if base > 1 and exponent > _MAX_EXPONENT:
        return "9" * (MAX_DIGITS + 1)
    return _spelt(base**exponent)


def _scientific(m: re.Match[str]) -> str:
    exponent = int(m.group(2))
    if exponent > _MAX_EXPONENT:
        return "9" * (MAX_DIGITS + 1)
    whole, _, fraction = m.group(1).partition(".")
    digits = whole + fraction
    shift = exponent - len(fraction)
    if shift < 0:
        return m.group(0)
    return _spelt(int(digits) * 10**shift)


def _ungroup(m: re.Match[str]) -> str:
    """ "50,000" and "50.000" are fifty thousand; "0,5" and "1.5" stay decimals (not matched)."""
    return m.group(1) + m.group(2).replace(m.group(3), "")


@cache
def _morphemes() -> re.Pattern[str]:
    """One word made only of number words: "vijftigduizend", "tweeëntwintig", "twenty-five"."""
    names = sorted({*number_words(), *scale_words(), "een", "één"}, key=len, reverse=True)
    part = "(?:" + "|".join(re.escape(n) for n in names) + ")"
    return re.compile(rf"^(?:{part}(?:ën|en)?)+$")


@cache
def _splitter() -> re.Pattern[str]:
    names = sorted({*number_words(), *scale_words(), "een", "één"}, key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in names))


def _value_of(word: str) -> list[int] | None:
    """The number words inside one written word ("twenty-five", "vijftigduizend"), scales as
    negative multipliers; None when the word is not made of number words only."""
    if word in _ARTICLES:
        return [1]
    values: list[int] = []
    for piece in word.split("-"):
        if not _morphemes().match(piece):
            return None
        for name in _splitter().findall(piece):
            if name in scale_words():
                values.append(-scale_words()[name])
            else:
                values.append(number_words().get(name, 1))
    return values


def _compose(parts: list[int]) -> int:
    """[50, -1000] -> 50000; [2, 20] ("tweeëntwintig") -> 22; [1, 100, 20] -> 120."""
    total = current = 0
    for value in parts:
        if value < 0:
            total += max(current, 1) * -value
            current = 0
        elif value == 100:
            current = max(current, 1) * 100
        else:
            current += value
    return total + current


_TOKEN = re.compile(r"[a-zà-ÿ]+(?:-[a-zà-ÿ]+)*")
_MODEL_SCALES = frozenset({"billion", "miljard"})


def _runs(text: str) -> list[tuple[int, int, list[int]]]:
    """(start, end, values) of each run of number words: words in a row, with "and" only after
    a hundred or a scale ("one hundred and twenty"; "two and four" are two numbers)."""
    tokens = list(_TOKEN.finditer(text))
    runs: list[tuple[int, int, list[int]]] = []
    i = 0
    while i < len(tokens):
        run: list[tuple[re.Match[str], list[int]]] = []
        j = i
        while j < len(tokens):
            gap = text[run[-1][0].end() : tokens[j].start()] if run else ""
            if gap.strip() and gap.strip() not in _JOINERS:
                break
            word = tokens[j].group()
            after_scale = bool(run) and (run[-1][1][-1] < 0 or run[-1][1][-1] == 100)
            if after_scale and word in _JOINERS and j + 1 < len(tokens):
                nxt = tokens[j + 1].group()
                if nxt not in _ARTICLES and _value_of(nxt) is not None:
                    j += 1
                    continue
            values = None if word in _MODEL_SCALES else _value_of(word)
            if values is None:
                break
            run.append((tokens[j], values))
            j += 1
        while run and run[-1][0].group() in _ARTICLES:
            run.pop()
        # An article counts in front of a scale or a hundred ("a thousand"), not alone.
        if (
            run
            and run[0][0].group() in _ARTICLES
            and (len(run) == 1 or (run[1][1][0] > 0 and run[1][1][0] != 100))
        ):
            run = run[1:]
        if any(v >= 0 for _, vs in run for v in vs):
            runs.append((run[0][0].start(), run[-1][0].end(), [v for _, vs in run for v in vs]))
        i = max(j, i + 1)
    return runs


def _words(text: str) -> str:
    """Runs of number words replaced by their value: "six 4090s" -> "6 4090s". "billion" and
    "miljard" stay words: "seven billion" -> "7 billion", a model size."""
    out: list[str] = []
    pos = 0
    for start, end, values in _runs(text):
        out += [text[pos:start], str(_compose(values))]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def number(value: str, scale: str | None = None, *, binary: bool = False) -> float | None:
    """`value` (digits, "." or "," as the decimal mark) times its scale ("k", "m", "thousand");
    binary k and m for token counts (32k = 32,768). None when it has more than MAX_DIGITS
    digits: too large for any slot."""
    digits = value.replace(",", ".")
    if len(digits.replace(".", "")) > MAX_DIGITS or digits.count(".") > 1:
        return None
    base = float(digits)
    if scale is None:
        return base
    table = BINARY if binary and scale in BINARY else DECIMAL
    factor = table.get(scale)
    return None if factor is None else base * factor


def integer(value: str, scale: str | None = None, *, binary: bool = False) -> int | None:
    found = number(value, scale, binary=binary)
    return None if found is None else round(found)
