"""config.json from the Hugging Face Hub, through huggingface_hub's cache.

Imported only when a name is neither a path nor in the catalog, so the common path stays fast
and works offline. Tests exercise model_source with shipped config files instead.
"""

from __future__ import annotations

import json
from functools import lru_cache

from estimator.errors import EstimatorError
from estimator.models import catalog


# A model's config does not change under a running bot; refinements, charts and team verdicts
# of one answer each resolve the model again.
@lru_cache(maxsize=256)
def fetch_config(repo_id: str) -> dict:
    try:
        from huggingface_hub import hf_hub_download
        from huggingface_hub.utils import HfHubHTTPError

        path = hf_hub_download(repo_id, "config.json")
    except (ImportError, OSError, ValueError, HfHubHTTPError) as exc:
        reason = type(exc).__name__
        suggestions = catalog.suggest(repo_id)
        if suggestions:
            raise EstimatorError("unknown_model", model=repo_id, suggestions=suggestions) from exc
        raise EstimatorError("hub_unavailable", model=repo_id, reason=reason) from exc
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    if not isinstance(raw, dict):
        raise EstimatorError("config_not_object")
    return raw
