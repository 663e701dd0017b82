"""The Hugging Face Hub over HTTP: a repository's config.json and the Hub's own count of its
safetensors parameters per dtype (the /api/models/<id>?expand[]=safetensors field that
huggingface_hub's model_info(expand=...) reads).

One attempt per request with a short timeout (no retry storm: an unreachable Hub costs about
TIMEOUT_S, not the tens of seconds of a client's backoff), results cached per process, and
failures remembered for FAILURE_TTL_S so a flood of questions naming a missing or unreachable
repository makes one request. The endpoint is huggingface_hub's (HF_ENDPOINT), the token the
user's own (HF_TOKEN or `hf auth login`), for gated repositories.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from estimator.errors import EstimatorError
from estimator.models import catalog, headers

from . import files

TIMEOUT_S = 3.0
FAILURE_TTL_S = 300.0
CACHE_SIZE = 256
MAX_BODY_BYTES = 2_000_000


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
    ) -> None:
        self._endpoint = endpoint
        self._timeout = timeout_s
        self._failure_ttl = failure_ttl_s
        self._token = token
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._failures: dict[str, _Failure] = {}
        self.requests = 0  # made over the network, for tests and benches

    def _base(self) -> str:
        if self._endpoint is None:
            from huggingface_hub import constants

            self._endpoint = constants.ENDPOINT
        return self._endpoint.rstrip("/")

    def _headers(self) -> dict[str, str]:
        token = self._token
        if token is None:
            from huggingface_hub import get_token

            token = get_token() or ""
            self._token = token
        return {"Authorization": f"Bearer {token}"} if token else {}

    def _get(self, key: str, repo: str, url: str) -> Any:
        """The JSON at `url`, cached under `key`; a failure is cached too."""
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            failure = self._failures.get(key)
            if failure is not None and failure.until > time.monotonic():
                raise failure.error
        try:
            value = self._fetch(repo, url)
        except EstimatorError as error:
            with self._lock:
                self._failures[key] = _Failure(error, time.monotonic() + self._failure_ttl)
            raise
        with self._lock:
            self._cache[key] = value
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return value

    def _fetch(self, repo: str, url: str) -> Any:
        import httpx

        self.requests += 1
        try:
            with (
                httpx.Client(timeout=self._timeout, follow_redirects=True) as client,
                client.stream("GET", url, headers=self._headers()) as response,
            ):
                if response.status_code in (401, 403):
                    raise EstimatorError("hub_gated", model=repo)
                if response.status_code == 404:
                    raise EstimatorError(
                        "unknown_model", model=repo, suggestions=catalog.suggest(repo)
                    )
                if response.status_code != 200:
                    raise _unreachable(repo, f"HTTP {response.status_code}")
                body = b""
                for chunk in response.iter_bytes():
                    body += chunk
                    if len(body) > MAX_BODY_BYTES:
                        raise EstimatorError("config_too_large", path=url[:200])
        except httpx.HTTPError as exc:
            raise _unreachable(repo, type(exc).__name__) from exc
        return files.loads(body, url)

    def config(self, repo: str) -> dict:
        raw = self._get(f"config:{repo}", repo, f"{self._base()}/{repo}/resolve/main/config.json")
        if not isinstance(raw, dict):
            raise EstimatorError("config_not_object")
        return raw

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
