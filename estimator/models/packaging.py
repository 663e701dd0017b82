"""How a name says the model is packaged: an Ollama tag ("llama3.1:8b",
"qwen2.5:14b-instruct-q4_K_M") means Ollama, a GGUF repository or file name ("...-GGUF",
"...Q5_K_M.gguf") llama.cpp, each with its quantization; an Ollama tag that names none is
Q4_K_M, the quantization Ollama's library ships by default (ollama.com/library: each model's
default tag is its q4_K_M build)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..precision import GGUF_BPW

_QUANT = re.compile(
    r"(?<![a-z0-9])("
    + "|".join(sorted((re.escape(q) for q in GGUF_BPW), key=len, reverse=True))
    + r")(?![a-z0-9])",
    re.IGNORECASE,
)
_OLLAMA = re.compile(r"^[a-z0-9][a-z0-9.\-]*:[a-z0-9][\w.\-]*$", re.IGNORECASE)
_GGUF = re.compile(r"gguf", re.IGNORECASE)
OLLAMA_DEFAULT = "q4_k_m"


@dataclass(frozen=True, slots=True)
class Packaging:
    base: str  # the name with its packaging words removed
    engine: str | None = None
    precision: str | None = None
    kind: str | None = None  # ollama or gguf


def _quant(name: str) -> re.Match[str] | None:
    return _QUANT.search(name.replace("-", "_").replace(".", "_"))


def quantization(name: str) -> str | None:
    """The GGUF format a name says ("...-Q5_K_M.gguf": q5_k_m), or None."""
    quant = _quant(name)
    return quant.group(1).lower() if quant else None


def read(text: str) -> Packaging:
    name = text.strip()
    quant = _quant(name)
    precision = quant.group(1).lower() if quant else None
    if _OLLAMA.match(name):
        base = name
        if quant:
            base = name[: quant.start()].rstrip("-_:.")
        return Packaging(base, "ollama", precision or OLLAMA_DEFAULT, "ollama")
    if _GGUF.search(name) or precision:
        base = _GGUF.sub(" ", name)
        if quant:
            base = base[: quant.start()] + " " + base[quant.end() :]
        base = re.sub(r"\.\s*$|[\s_.-]+$", "", base.strip()).strip()
        # A GGUF repository holds every quantization; Q4_K_M is the one llama.cpp users take.
        return Packaging(base or name, "llama.cpp", precision or OLLAMA_DEFAULT, "gguf")
    return Packaging(name)
