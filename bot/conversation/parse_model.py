"""The model a message names: a Hugging Face id, a catalog model (exact, then by close spelling
with rapidfuzz), or a bare size ("7B", "0,5b", "7 billion")."""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise

from estimator.models import catalog
from estimator.names import tokens

from .. import lexicon as lx

_HF_ID = re.compile(r"(?<![\w./-])([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?![\w/])")
# A path as typed in a terminal: quoted when it holds spaces, else one word, which may end in
# the sentence's punctuation ("can I run ./model.gguf?").
_QUOTED = re.compile(r"""(?<!\S)["'`“‘]([^"'`“”‘’\n]{2,1000})["'`”’](?=\s|$|[?!.,;:])""")
_LEADING = "\"'`([<“‘"
_TRAILING = "\"'`)]>,;:!?.”’"
_PATH_STARTS = ("/", "./", "../", "~/")
_PATH_ENDS = (".gguf", "config.json")
_WORD = re.compile(r"[a-z0-9][a-z0-9.\-_]*[a-z0-9]|[a-z0-9]")
_SIZE = re.compile(r"^(\d+(?:[.,]\d+)?)([bmt])$")
SIZE_WORDS = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s*(b|m|t|billion|miljard|million|miljoen)(?![\w])"
    r"(?!\s*(?:rows|rijen|records|samples|tokens?|regels|users|gebruikers|parameters|params))"
)
_SCALE_LETTER = {"billion": "b", "miljard": "b", "million": "m", "miljoen": "m"}
# Words that a model name never contains, so a window holding one is not a name.
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "our",
        "your",
        "on",
        "op",
        "met",
        "with",
        "for",
        "voor",
        "of",
        "van",
        "to",
        "in",
        "and",
        "en",
        "or",
        "of",
        "can",
        "could",
        "kan",
        "kun",
        "i",
        "ik",
        "we",
        "wij",
        "run",
        "train",
        "fine",
        "tune",
        "finetune",
        "serve",
        "use",
        "draaien",
        "trainen",
        "is",
        "it",
        "het",
        "een",
        "de",
        "dit",
        "this",
        "that",
        "will",
        "would",
        "gpu",
        "cpu",
        "ram",
        "vram",
        "laptop",
        "lora",
        "qlora",
        "full",
        "model",
        "about",
        "what",
    ]
)
MAX_WINDOW = 6
_FUZZY_CUTOFF = 75


def _path_shaped(text: str) -> bool:
    """Written as a file or folder: from the root, the current or the home folder, or a GGUF
    file or config.json by name (on disk or not: only the terminal's model source looks)."""
    if text.lower().endswith(_PATH_ENDS):
        return True
    # One word after a slash is a chat command ("/help", "/start"), not a model's folder.
    if text.startswith("/") and "/" not in text.strip("/"):
        return False
    return text.startswith(_PATH_STARTS) and any(c.isalnum() for c in text)


def local_path(original: str) -> str | None:
    """A file or folder the message names, as written (case kept), or None; the disk is never
    read here, so a Telegram message learns nothing of the server's files."""
    for m in _QUOTED.finditer(original):
        if _path_shaped(m.group(1).strip()):
            return m.group(1).strip()
    for word in original.split():
        word = word.lstrip(_LEADING).rstrip(_TRAILING)
        if _path_shaped(word):
            return word
    return None


def hf_id(original: str) -> str | None:
    """A local path (a GGUF file, a model folder, a config.json), or an 'org/name' Hugging
    Face id, as written; never a rate or a fraction ("tokens/s", "24/7")."""
    from ..model_source import is_hub_id

    path = local_path(original)
    if path is not None:
        return path
    return next((m.group(1) for m in _HF_ID.finditer(original) if is_hub_id(m.group(1))), None)


# An Ollama tag as `ollama run` takes it: "qwen2.5:14b", "llama3.1:8b-instruct-q8_0".
_OLLAMA_TAG = re.compile(r"(?<![\w./:-])([a-z0-9][a-z0-9.\-]*:[a-z0-9][\w.\-]*)(?![\w/:])")


def ollama_tag(low: str) -> str | None:
    """An Ollama tag of a catalog model, as written: answered on Ollama with its Q4_K_M default
    (or the quantization the tag names), not as the model's 16-bit checkpoint."""
    for m in _OLLAMA_TAG.finditer(low):
        tag = m.group(1).rstrip(".")
        if catalog.find(tag) is not None or catalog.find(tag.split("-q", 1)[0]) is not None:
            return tag
    return None


# A size glued into a name ("foo-30b-a3b", "mymodel-7b", "llama-4-scout-17b-16e") belongs to
# that name: never read as a bare dense size.
_GLUED = re.compile(
    r"[a-z0-9][a-z0-9._]*[-_][a-z0-9._-]*\d+(?:\.\d+)?b[a-z0-9._-]*|[a-z0-9._-]*\d+(?:\.\d+)?b[-_][a-z0-9._-]+"
)
# The words _GLUED is tried on, each at most _LONGEST_NAME long: its nested runs backtrack
# cubically, so 1,000 digits in a row took 18 s (and held the event loop); no model name is
# that long (the longest catalog id is under 60 characters).
_WORD = re.compile(r"[a-z0-9._-]+")
_LONGEST_NAME = 96


def bare_size(text: str) -> str | None:
    """'7B' for "7b", "7 b", "7 billion", "7 miljard"; '0.5B' for "0,5b". A size that is part
    of a hyphenated name gives that name instead, so that an unknown name is answered as one
    (with suggestions, or the question for its total and active size) and not as a dense model
    of that size."""
    for word in _WORD.finditer(text):
        if len(word.group()) > _LONGEST_NAME:
            continue
        for glued in _GLUED.finditer(word.group()):
            token = glued.group().strip("-_.")
            if re.search(r"[a-z]{2}", token):
                return token
    m = SIZE_WORDS.search(text)
    if m is None:
        return None
    unit = _SCALE_LETTER.get(m.group(2), m.group(2))
    number = m.group(1).replace(",", ".")
    if float(number) == 0:
        return None
    return f"{number}{unit.upper()}"


def _windows(words: list[str]) -> list[tuple[int, int, str, str | None]]:
    """Runs of words, longest first: (start, end, the words, the word that follows)."""
    spans = []
    for size in range(min(MAX_WINDOW, len(words)), 0, -1):
        for start in range(len(words) - size + 1):
            window = words[start : start + size]
            if window[0] in _STOP or window[-1] in _STOP:
                continue
            end = start + size
            spans.append((start, end, " ".join(window), words[end] if end < len(words) else None))
    return spans


# Words that name another model of a family: "command r plus" is not Command R, "qwen3 vl" is not
# Qwen3. A catalog name followed by one it does not contain names a model the catalog lacks.
_VARIANT_WORDS = frozenset(
    {
        "plus",
        "pro",
        "max",
        "mini",
        "small",
        "nano",
        "micro",
        "tiny",
        "lite",
        "large",
        "medium",
        "ultra",
        "turbo",
        "flash",
        "air",
        "next",
        "vision",
        "vl",
        "omni",
        "coder",
        "math",
        "guard",
    }
)


def _names_a_family(window: str) -> bool:
    """At least one word of letters that is not a size: "qwen 7b" yes, "7b" no. One word alone
    must be a family's name ("mixtral", "phi4"), not an everyday word a name contains ("small")."""
    words = window.split()
    if len(words) == 1:
        return any(part in _families() for part in tokens(words[0]))
    return any(not _SIZE.match(w) and re.search(r"[a-z]{2}", w) for w in words)


@cache
def _families() -> frozenset[str]:
    return frozenset(tokens(m.name)[0] for m in catalog.models())


def catalog_model(text: str) -> str | None:
    """The catalog model named in `text`: the longest run of words that names exactly one. A
    name followed by a word for another model of its family ("command r ultra") or by a size it
    does not have ("olmo 2 1b", "starcoder2 15b") names a model the catalog lacks: returned as
    written, to be answered as unknown with the catalog's close names, unless a close spelling
    of the same size is in the catalog ("lama 3 8b")."""
    # "qwen 2,5 7b": a version written with a decimal comma is Qwen2.5, not "2" and "5 7b".
    text = re.sub(r"(?<=\d),(?=\d)", ".", text)
    words = _WORD.findall(re.sub(r"(?<=[a-z0-9])\+", " plus", text))
    lacking: tuple[int, int, str] | None = None
    for start, end, window, after in _windows(words):
        if lacking is not None and lacking[0] <= start and end <= lacking[1]:
            continue  # a shorter name inside what names a model the catalog lacks
        if not _names_a_family(window):
            continue
        found = catalog.find(window)
        if found is None:
            continue
        names = tokens(found.name)
        if after in _VARIANT_WORDS and after not in names:
            return f"{window} {after}"
        if after is not None and _SIZE.match(after) and after not in names:
            lacking = lacking or (start, end + 1, f"{window} {after}")
            continue
        return found.name
    return (
        _close_spelling(words)
        or (lacking[2] if lacking else None)
        or _family_size(words)
        or _misspelt_family(words)
    )


def _family_size(words: list[str]) -> str | None:
    """A family's name and a size the catalog has no model of ("starcoder2 15b", "yi 9b"):
    returned as written, so the answer says it does not know that model instead of sizing
    another one."""
    for before, word in pairwise(words):
        if _SIZE.match(word) and tokens(before) and tokens(before)[0] in _families():
            return f"{before} {word}"
    return None


_TYPO_CUTOFF = 85


def _misspelt_family(words: list[str]) -> str | None:
    """A word that is a family's name misspelt ("mixtrall", "mistrall"): returned as written,
    so the answer asks "did you mean ...?" instead of which model."""
    return next((word for word in words if _misspelt(word)), None)


def _misspelt(word: str) -> bool:
    """A word close to a family's name that is neither that name nor an everyday word."""
    from rapidfuzz import fuzz

    if len(word) < 5 or not word.isalpha() or word in _STOP or word in _families():
        return False
    if lx.pattern("everyday").fullmatch(word):
        return False
    return any(
        fuzz.ratio(word, family) >= _TYPO_CUTOFF for family in _families() if len(family) >= 4
    )


@cache
def _by_size() -> dict[str, list[str]]:
    sizes: dict[str, list[str]] = {}
    for model in catalog.models():
        for token in re.findall(r"(?<![\w.])\d+(?:\.\d+)?[bm](?![\w])", model.name.lower()):
            sizes.setdefault(token, []).append(model.name)
    return sizes


def _spellings(name: str, size: str) -> tuple[str, ...]:
    """The name's words, and the same up to its size ("mistral 7b" for Mistral-7B-v0.1)."""
    words = tokens(name)
    cut = words[: words.index(size) + 1] if size in words else words
    return " ".join(words), " ".join(cut)


def _close_spelling(words: list[str]) -> str | None:
    """A misspelt or underspecified name ("lama 3 8b", "qwen 7b"): the closest catalog name of
    the same size by rapidfuzz, ties going to the name with the fewest other words."""
    from rapidfuzz import fuzz

    for i, word in enumerate(words):
        size = word.replace(",", ".")
        names = _by_size().get(size)
        if not names:
            continue
        best: tuple[float, float, int, str] | None = None
        for width in (1, 2, 3):
            before = words[max(0, i - width) : i]
            if len(before) < width or any(w in _STOP for w in before):
                break
            if not (_names_a_family(" ".join(before)) or (width == 1 and _misspelt(before[0]))):
                continue
            query = " ".join(tokens(" ".join([*before, size])))
            for name in names:
                for choice in _spellings(name, size):
                    score = (
                        fuzz.token_set_ratio(query, choice),
                        fuzz.ratio(query, choice),
                        -len(tokens(name)),
                        name,
                    )
                    if score[0] >= _FUZZY_CUTOFF and (best is None or score > best):
                        best = score
        if best is not None:
            return best[3]
    return None
