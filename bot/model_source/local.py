"""A model on the terminal user's disk: a config.json or a model folder (the config and the
safetensors shards beside it, whose headers give the exact tensor bytes), or a GGUF file or a
folder holding one (its own metadata and tensor list, read with llama.cpp's gguf package)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from estimator.errors import EstimatorError
from estimator.models import config_json, headers, lookup
from estimator.models.types import Architecture
from estimator.result import Note

from . import files

MAX_SHARDS = 1000
_FLOAT_FORMATS = {"BF16": "bf16", "F16": "fp16", "F32": "fp32"}
_LATER_SHARD = re.compile(r"-(?!00001)\d{5}-of-\d{5}\.gguf$", re.IGNORECASE)


def safetensors_summary(folder: Path) -> headers.TensorSummary | None:
    """Every shard's header in `folder`, summed; None when it holds no safetensors file."""
    try:
        shards = sorted(p for p in folder.iterdir() if p.name.endswith(".safetensors"))
    except OSError as exc:
        raise EstimatorError(
            "path_unusable", path=str(folder)[:80], reason=type(exc).__name__
        ) from exc
    if not shards:
        return None
    if len(shards) > MAX_SHARDS:
        raise EstimatorError("weights_unreadable", reason=f"{len(shards)} shards")
    total: headers.TensorSummary | None = None
    for shard in shards:
        n = headers.header_length(files.read_bytes(shard, 8, length=8))
        raw = files.read_bytes(shard, headers.MAX_HEADER_BYTES, start=8, length=n)
        summary = headers.summarize_safetensors(headers.parse_header(raw))
        total = summary if total is None else total.merged(summary)
    return total


def measured(arch: Architecture, summary: headers.TensorSummary) -> Architecture:
    """The architecture with what its checkpoint's headers count: the stored bytes in the
    checkpoint's format, and the parameters when every tensor holds one per element."""
    fmt = arch.checkpoint_precision
    dtypes = set(summary.bytes)
    if len(dtypes) == 1 and next(iter(dtypes)) in _FLOAT_FORMATS:
        fmt = _FLOAT_FORMATS[next(iter(dtypes))]
    return replace(
        arch,
        checkpoint_precision=fmt,
        measured_source=summary.source,
        measured_format=fmt,
        measured_bytes=summary.total_bytes,
        measured_params=None if summary.packed else summary.total_elements,
    )


def weights_note(arch: Architecture) -> Note:
    return Note(
        "weights_from_headers",
        {
            "source": arch.measured_source,
            "exact_params": arch.measured_params or arch.params,
            "bytes": arch.measured_bytes,
        },
    )


def _only_gguf(folder: Path) -> Path | None:
    """The one GGUF model in a folder without a config.json (its first shard when split);
    None when there is none, refused when there are several to choose from."""
    try:
        ggufs = sorted(p for p in folder.iterdir() if p.name.lower().endswith(".gguf"))
    except OSError as exc:
        raise EstimatorError(
            "path_unusable", path=str(folder)[:80], reason=type(exc).__name__
        ) from exc
    # Split files' later shards ("-00002-of-00003.gguf") belong to their first.
    models = [p for p in ggufs if not _LATER_SHARD.search(p.name)]
    if len(models) > 1:
        raise EstimatorError(
            "several_gguf", path=str(folder)[:120], files=", ".join(p.name for p in models[:4])
        )
    return models[0] if models else None


def _gguf(path: Path) -> lookup.ModelChoice:
    from .gguf_file import read_gguf

    arch = read_gguf(path)
    return lookup.ModelChoice(arch, (Note("gguf_model", {"path": str(path)}), weights_note(arch)))


def from_path(path: Path) -> lookup.ModelChoice:
    """The model at `path`: a GGUF file, a config.json (with the safetensors shards beside
    it), a folder of config and weights, or a folder holding one GGUF model."""
    what = files.kind(path)
    if what is None:
        raise EstimatorError(
            "config_not_found" if path.name.endswith(".json") else "path_not_found",
            path=str(path)[:200],
        )
    if what == "file" and path.name.lower().endswith(".gguf"):
        return _gguf(path)
    if what == "dir" and files.kind(path / "config.json") is None:
        gguf = _only_gguf(path)
        if gguf is not None:
            return _gguf(gguf)
    raw = files.read_config(path)
    folder = path if what == "dir" else path.parent
    name = str(raw.get("_name_or_path") or folder.resolve().name or path.stem)
    arch = config_json.from_dict(raw, name.rsplit("/", 1)[-1][:80])
    notes = [Note("config_model", {"path": str(path)})]
    summary = safetensors_summary(folder)
    if summary is not None:
        arch = measured(arch, summary)
        notes.append(weights_note(arch))
    return lookup.ModelChoice(arch, (*notes, *lookup.describe(arch)))
