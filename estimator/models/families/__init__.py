"""Architecture builders per model family: config.json keys -> weight matrices and 1-D params.

One module per family that needs its own arithmetic; the formulas follow each family's
transformers modeling file, and tests/estimator/models/test_families.py checks every catalog
model against its published parameter count. A model_type without a builder is read by the generic
decoder-only builder when its config has the usual fields.
"""

from __future__ import annotations

from collections.abc import Callable

from ..types import Architecture
from .bigcode import build_gpt_bigcode, build_starcoder2
from .common import Config
from .deepseek import build_deepseek
from .dense import FAMILIES as DENSE
from .dense import build_dense
from .falcon import build_falcon
from .falcon_h1 import build_falcon_h1
from .generic import build_generic
from .glm_moe import build_glm_moe
from .gpt_oss import build_gpt_oss
from .granite_hybrid import build_granite_hybrid
from .granite_moe import build_granite_moe
from .jamba import build_jamba
from .llama4 import build_llama4
from .mllama import build_mllama
from .moe import build_moe
from .nemotron_h import build_nemotron_h
from .phimoe import build_phimoe
from .qwen1 import build_qwen1
from .qwen3_next import build_qwen3_next

BUILDERS: dict[str, Callable[[str, Config], Architecture]] = {
    **{model_type: build_dense for model_type in DENSE},
    "qwen": build_qwen1,
    "falcon": build_falcon,
    "falcon_h1": build_falcon_h1,
    "mixtral": build_moe,
    "qwen2_moe": build_moe,
    "qwen3_moe": build_moe,
    "phimoe": build_phimoe,
    "deepseek_v2": build_deepseek,
    "deepseek_v3": build_deepseek,
    "kimi_k2": build_deepseek,
    "glm4_moe": build_glm_moe,
    "gpt_oss": build_gpt_oss,
    "llama4_text": build_llama4,
    "mllama_text_model": build_mllama,
    "gpt_bigcode": build_gpt_bigcode,
    "starcoder2": build_starcoder2,
    "qwen3_next": build_qwen3_next,
    "jamba": build_jamba,
    "nemotron_h": build_nemotron_h,
    "granitemoehybrid": build_granite_hybrid,
    "granitemoe": build_granite_moe,
}


def build(name: str, cfg: Config) -> Architecture:
    """Architecture of a config.json dict whose keys were already normalised."""
    builder = BUILDERS.get(str(cfg.get("model_type")), build_generic)
    return builder(name, cfg)


__all__ = ["BUILDERS", "build"]
