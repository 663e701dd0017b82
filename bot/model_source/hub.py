"""The Hugging Face Hub over HTTP: a repository's config.json, the Hub's own count of its
safetensors parameters per dtype (the /api/models/<id>?expand[]=safetensors field that
huggingface_hub's model_info(expand=...) reads), its file list with sizes (the
/api/models/<id>/tree/main endpoint of huggingface_hub's list_repo_tree) and a GGUF file's
header, read by one Range request that stops as soon as the header is whole.

One attempt per request, with short connect and read timeouts and a deadline for the whole
request (no retry storm: an unreachable Hub costs about TIMEOUT_S, not the tens of seconds of a
client's backoff, nor a trickling server's forever), results cached per process, and
failures remembered for FAILURE_TTL_S so a flood of questions naming a missing or unreachable
repository makes one request. The endpoint is HF_ENDPOINT as for huggingface_hub, the token
the user's own (HF_TOKEN, else what `hf auth login` stored), for gated repositories.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from estimator.errors import EstimatorError
from estimator.models import catalog, headers

from . import files

TIMEOUT_S = 2.0  # the whole request, connection to last byte
FAILURE_TTL_S = 300.0
CACHE_SIZE = 256
MAX_BODY_BYTES = 2_000_000
# A GGUF header is mostly its tokenizer: Llama 3's 128,256 tokens and 280,147 merges take
# about 7.5 MB (meta-llama/Llama-3.1-8B-Instruct's tokenizer.json); 32 MiB bounds the largest
# vocabularies (Gemma 3's 262,144 tokens with scores) with room. At 50 Mbit/s 8 MB take
# 1.3 s, so a header gets HEADER_TIMEOUT_S instead of the JSON calls' TIMEOUT_S.
MAX_GGUF_HEADER_BYTES = 32 * 2**20
HEADER_TIMEOUT_S = 8.0
# The header is tried once this much has arrived, then at each doubling: a later shard's
# header (its tensor list only) is whole within the first read.
FIRST_HEADER_TRY = 256 * 2**10


@dataclass(frozen=True, slots=True)
class _Failure:
    error: EstimatorError
    until: float


class Hub:
    def __init__(
        self,
        endpoint: str | None = None,
        *,
        timeout_s: float = TIMEOUT_S,
        failure_ttl_s: float = FAILURE_TTL_S,
        token: str | None = None,
        header_timeout_s: float = HEADER_TIMEOUT_S,
    ) -> None:
        self._endpoint = endpoint
        self._timeout = timeout_s
        self._header_timeout = header_timeout_s
        self._failure_ttl = failure_ttl_s
        self._token = token
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._failures: dict[str, _Failure] = {}
        self.requests = 0  # made over the network, for tests and benches

    def _base(self) -> str:
        if self._endpoint is None:
            self._endpoint = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
        return self._endpoint.rstrip("/")

    def _headers(self) -> dict[str, str]:
        token = self._token
        if token is None:
            token = os.environ.get("HF_TOKEN")
            if token is None:
                from huggingface_hub import get_token

                token = get_token() or ""
            self._token = token
        return {"Authorization": f"Bearer {token}"} if token else {}

    def _get(self, key: str, repo: str, url: str) -> Any:
        """The JSON at `url`, cached under `key`; a failure is cached too."""
        return self._cached(key, lambda: self._fetch(repo, url))

    def _cached(self, key: str, load: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            failure = self._failures.get(key)
            if failure is not None and failure.until > time.monotonic():
                raise failure.error
        try:
            value = load()
        except EstimatorError as error:
            with self._lock:
                self._failures[key] = _Failure(error, time.monotonic() + self._failure_ttl)
            raise
        with self._lock:
            self._cache[key] = value
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return value

    @contextmanager
    def _stream(
        self, repo: str, url: str, timeout_s: float, extra: dict[str, str] | None = None
    ) -> Iterator[Iterator[bytes]]:
        """The body of a GET at `url` in chunks, one attempt, ending in `timeout_s` (a slow
        server is unreachable); the Hub's refusals as the errors they mean."""
        import httpx

        self.requests += 1
        deadline = time.monotonic() + timeout_s
        timeout = httpx.Timeout(timeout_s, connect=min(timeout_s, 1.5))
        try:
            with (
                httpx.Client(timeout=timeout, follow_redirects=True) as client,
                client.stream("GET", url, headers={**self._headers(), **(extra or {})}) as response,
            ):
                if response.status_code in (401, 403):
                    raise EstimatorError("hub_gated", model=repo)
                if response.status_code == 404:
                    raise EstimatorError(
                        "unknown_model", model=repo, suggestions=catalog.suggest(repo)
                    )
                if response.status_code not in (200, 206):
                    raise _unreachable(repo, f"HTTP {response.status_code}")

                def chunks() -> Iterator[bytes]:
                    for chunk in response.iter_bytes():
                        if time.monotonic() > deadline:
                            raise _unreachable(repo, "too slow")
                        yield chunk

                yield chunks()
        except httpx.HTTPError as exc:
            raise _unreachable(repo, type(exc).__name__) from exc

    def _fetch(self, repo: str, url: str) -> Any:
        body = b""
        with self._stream(repo, url, self._timeout) as chunks:
            for chunk in chunks:
                body += chunk
                if len(body) > MAX_BODY_BYTES:
                    raise EstimatorError("config_too_large", path=url[:200])
        return files.loads(body, url)

    def _fetch_header(self, repo: str, path: str) -> headers.GgufHeader:
        url = f"{self._base()}/{repo}/resolve/main/{quote(path)}"
        wanted = {"Range": f"bytes=0-{MAX_GGUF_HEADER_BYTES - 1}"}
        data = bytearray()
        attempt = FIRST_HEADER_TRY
        with self._stream(repo, url, self._header_timeout, wanted) as chunks:
            for chunk in chunks:
                data += chunk
                if len(data) >= attempt:
                    header = headers.gguf_header(bytes(data))
                    if header is not None:
                        return header
                    attempt *= 2
                if len(data) >= MAX_GGUF_HEADER_BYTES:
                    break
        header = headers.gguf_header(bytes(data[:MAX_GGUF_HEADER_BYTES]))
        if header is None:
            raise EstimatorError("weights_unreadable", reason=f"{path[-60:]}: header cut short")
        return header

    def config(self, repo: str) -> dict:
        raw = self._get(f"config:{repo}", repo, f"{self._base()}/{repo}/resolve/main/config.json")
        if not isinstance(raw, dict):
            raise EstimatorError("config_not_object")
        return raw

    def files(self, repo: str) -> list[tuple[str, int]]:
        """Every file of the repository's main branch with its size in bytes (the first page
        of the tree: 1,000 entries, far more than any GGUF repository holds)."""
        url = f"{self._base()}/api/models/{repo}/tree/main?recursive=true"
        raw = self._get(f"tree:{repo}", repo, url)
        if not isinstance(raw, list):
            raise _unreachable(repo, "tree is not a list")
        return [
            (e["path"][:300], e["size"])
            for e in raw
            if isinstance(e, dict)
            and e.get("type") == "file"
            and isinstance(e.get("path"), str)
            and isinstance(e.get("size"), int)
            and not isinstance(e.get("size"), bool)
        ]

    def gguf_header(self, repo: str, path: str) -> headers.GgufHeader:
        """The header of the GGUF file at `path` in the repository, cached like the JSON."""
        value = self._cached(f"gguf:{repo}/{path}", lambda: self._fetch_header(repo, path))
        assert isinstance(value, headers.GgufHeader)
        return value

    def safetensors(self, repo: str) -> headers.TensorSummary | None:
        """The Hub's count of the repository's safetensors parameters per dtype, or None."""
        try:
            info = self._get(
                f"info:{repo}", repo, f"{self._base()}/api/models/{repo}?expand[]=safetensors"
            )
        except EstimatorError:
            return None
        st = info.get("safetensors") if isinstance(info, dict) else None
        params = st.get("parameters") if isinstance(st, dict) else None
        if not isinstance(params, dict) or not params:
            return None
        elements = {
            str(d)[:16]: int(n)
            for d, n in params.items()
            if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 10**14
        }
        sizes = {d: n * _DTYPE_BYTES.get(d, 2) for d, n in elements.items()}
        return headers.TensorSummary("safetensors", elements, sizes, 0)


# Bytes per element of the dtypes the Hub counts (safetensors' dtype names).
_DTYPE_BYTES = {
    "F64": 8,
    "F32": 4,
    "I32": 4,
    "U32": 4,
    "I64": 8,
    "F16": 2,
    "BF16": 2,
    "I16": 2,
    "F8_E4M3": 1,
    "F8_E5M2": 1,
    "F8_E8M0": 1,
    "I8": 1,
    "U8": 1,
    "BOOL": 1,
}


def _unreachable(repo: str, reason: str) -> EstimatorError:
    return EstimatorError(
        "hub_unreachable", model=repo, reason=reason, suggestions=catalog.suggest(repo)
    )


_default: Hub | None = None


def default_hub() -> Hub:
    """The process's Hub client (one cache for every question)."""
    global _default
    if _default is None:
        _default = Hub()
    return _default
