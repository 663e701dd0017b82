"""A Hub repository of GGUF files ("bartowski/Qwen2.5-7B-Instruct-GGUF"): its file list, the
file of the format asked (else the one llama.cpp users take, Q4_K_M, or the format nearest
it), that file's header (every shard's, when split) and so the exact weights of that file.
When the Hub cannot answer, the catalog model the name maps to, saying why."""

from __future__ import annotations

import re
from dataclasses import dataclass

from estimator.errors import EstimatorError
from estimator.models import lookup, packaging
from estimator.precision import GGUF_BPW
from estimator.result import Note

from . import gguf_file
from .hub import Hub

MAX_SHARDS = 64
_SPLIT = re.compile(r"^(?P<stem>.+)-(?P<index>\d{5})-of-(?P<count>\d{5})\.gguf$", re.IGNORECASE)
# Files beside the model that are no model: a vision projector ("mmproj-F16.gguf"), an
# importance matrix's GGUF form ("imatrix.gguf").
_NOT_MODELS = re.compile(r"(?:^|/)(?:mmproj|imatrix)[^/]*$", re.IGNORECASE)
_GGUF_WORD = re.compile(r"gguf", re.IGNORECASE)
_DEFAULT = packaging.OLLAMA_DEFAULT


@dataclass(frozen=True, slots=True)
class GgufModel:
    """One model file of a repository, or the shards of a split one."""

    shards: tuple[str, ...]  # paths in the repository, first to last
    size: int  # bytes of every shard
    precision: str | None  # the GGUF format its name says

    @property
    def file(self) -> str:
        return self.shards[0].rsplit("/", 1)[-1]


def is_gguf_repo(text: str) -> bool:
    """Whether a Hub id names a repository of GGUF files ("...-GGUF", "..._gguf")."""
    return bool(_GGUF_WORD.search(text.rsplit("/", 1)[-1]))


def models(listing: list[tuple[str, int]]) -> list[GgufModel]:
    """The repository's GGUF models: single files, and split ones whose every shard is
    listed (their sizes summed)."""
    singles: list[GgufModel] = []
    splits: dict[tuple[str, int], dict[int, tuple[str, int]]] = {}
    for path, size in sorted(listing):
        if not path.lower().endswith(".gguf") or _NOT_MODELS.search(path):
            continue
        m = _SPLIT.match(path)
        if m is None:
            singles.append(
                GgufModel((path,), size, packaging.quantization(path.rsplit("/", 1)[-1]))
            )
            continue
        count = int(m.group("count"))
        if 1 <= count <= MAX_SHARDS:
            splits.setdefault((m.group("stem"), count), {})[int(m.group("index"))] = (path, size)
    for (stem, count), shards in splits.items():
        if sorted(shards) == list(range(1, count + 1)):
            paths = tuple(shards[i][0] for i in range(1, count + 1))
            total = sum(size for _, size in shards.values())
            singles.append(GgufModel(paths, total, packaging.quantization(stem.rsplit("/", 1)[-1])))
    return singles


def choose(found: list[GgufModel], asked: str | None) -> GgufModel | None:
    """The model in the format asked (None when the repository has none); without one asked,
    Q4_K_M, else the format whose bits per weight come nearest it, else the first file."""
    if asked is not None:
        return next((m for m in found if m.precision == asked), None)
    known = [m for m in found if m.precision is not None]
    if not known:
        return found[0] if found else None
    target = GGUF_BPW[_DEFAULT]
    # Of equal formats (an imatrix and a plain Q4_K_M), the smaller file.
    return min(known, key=lambda m: (abs(GGUF_BPW[str(m.precision)] - target), m.size))


def from_hub(repo: str, precision: str | None, client: Hub) -> lookup.ModelChoice:
    """The model of the file in the format asked (a GGUF format name or None), read from its
    header; raises EstimatorError when the Hub cannot answer or the repository holds none."""
    found = models(client.files(repo))
    model = choose(found, precision)
    notes: list[Note] = []
    if model is None and precision is not None:
        model = choose(found, None)
        if model is not None:
            formats = sorted({m.precision for m in found if m.precision}, key=GGUF_BPW.__getitem__)
            notes.append(
                Note(
                    "gguf_format_not_in_repo",
                    {
                        "model": repo,
                        "precision": precision.upper(),
                        "formats": ", ".join(f.upper() for f in formats) or model.file,
                        "file": model.file,
                    },
                )
            )
    if model is None:
        raise EstimatorError("no_gguf_in_repo", model=repo)
    parts = [client.gguf_header(repo, path) for path in model.shards]
    base = packaging.read(repo.rsplit("/", 1)[-1]).base
    arch = gguf_file.architecture(parts, base)
    params = {
        "model": repo,
        "file": model.file,
        "shards": len(model.shards),
        "exact_params": arch.measured_params,
        "bytes": arch.measured_bytes,
        "disk_bytes": model.size,
    }
    notes.insert(0, Note("gguf_hub_split" if len(model.shards) > 1 else "gguf_hub_file", params))
    own = arch.measured_format if not notes[1:] else None
    return lookup.ModelChoice(arch, (*notes, *lookup.describe(arch)), "llama.cpp", own)


def fallback(repo: str, error: EstimatorError, choice: lookup.ModelChoice) -> lookup.ModelChoice:
    """The catalog model a GGUF repository's name maps to, when the Hub could not tell."""
    reason = error.params.get("reason") or _REASONS.get(error.code, error.code)
    note = Note("gguf_hub_fallback", {"model": repo, "reason": str(reason)[:80]})
    return lookup.ModelChoice(
        choice.architecture, (note, *choice.notes), choice.engine, choice.precision
    )


_REASONS = {
    "unknown_model": "HTTP 404",
    "hub_gated": "HTTP 401",
    "hub_rate_limited": "rate limit",
    "no_gguf_in_repo": "no GGUF file",
}
