"""`llm-sizer estimate --json` and `ask --json` report the total and active parameters of the
models people ask about, as published: the seven of the catalog issue's examples and twenty
more of 2025-2026. Published figures: each model's card (rounded as stated) or a checkpoint's
exact tensor count."""

import json
import math

import pytest

from bot.cli import main

# name as asked -> (published total, published active or None, tolerance on the total)
# Active figures are stated without the input embedding and the vision tower, and round
# (Qwen3-Next's "A3B" is 3.2B without its lm_head): within 20%.
ASKED = {
    # the examples
    "Llama 3.3 70B": (70e9, None, 0.02),
    "Llama 4 Scout": (109e9, 17e9, 0.01),
    "Kimi K2": (1.04e12, 32e9, 0.02),
    "GLM 4.5 Air": (106e9, 12e9, 0.01),
    "QwQ-32B": (32.5e9, None, 0.01),  # Qwen's card: 32.5B
    "Qwen2.5-Coder-32B": (32.5e9, None, 0.01),
    "DeepSeek-R1-Distill-Qwen-14B": (14.7e9, None, 0.01),  # Qwen2.5-14B's card: 14.7B
    # twenty more
    "Llama-4-Maverick-17B-128E": (400e9, 17e9, 0.01),
    "Qwen3-Next-80B-A3B-Instruct": (80e9, 3e9, 0.01),
    "Qwen3-Coder-480B-A35B": (480e9, 35e9, 0.01),
    "Qwen3-30B-A3B-Instruct-2507": (30.5e9, 3.3e9, 0.01),
    "Qwen3-235B-A22B-Instruct-2507": (235e9, 22e9, 0.01),
    "gpt-oss-20b": (20.9e9, 3.6e9, 0.01),
    "gpt-oss-120b": (116.8e9, 5.1e9, 0.01),
    "DeepSeek-V3.1": (671e9, 37e9, 0.01),
    "DeepSeek-R1-0528": (671e9, 37e9, 0.01),
    "Kimi-K2-Instruct-0905": (1.04e12, 32e9, 0.02),
    "GLM-4.6": (355e9, 32e9, 0.01),
    "Mistral-Small-3.2-24B": (24_011_361_280, None, 0.0),  # Hub safetensors total
    "Magistral-Small-2506": (23_572_403_200, None, 0.0),
    "Gemma-3-27B": (27_432_406_640, None, 0.0),  # MedGemma-27B index total_size / 2
    "Phi-4-mini": (3.8e9, None, 0.02),
    "Phi-3.5-MoE": (41.9e9, 6.6e9, 0.01),
    "MiniMax-M2": (228_703_644_928, 10e9, 0.001),  # includes its MTP modules; card: 10B active
    "Command-R-v01": (35e9, None, 0.01),
    "Qwen2.5-VL-3B": (3_754_622_976, None, 0.0),
    "Mixtral-8x22B": (141e9, 39e9, 0.01),
}


@pytest.mark.parametrize("name", list(ASKED))
def test_estimate_json_reports_published_total_and_active(capsys, name):
    total, active, tolerance = ASKED[name]
    code = main(["estimate", "--model", name, "--task", "inference", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    inputs = json.loads(out)["inputs"]
    assert math.isclose(inputs["params"], total, rel_tol=tolerance), (name, inputs["params"])
    if active is not None:
        from estimator.models import catalog

        arch = catalog.find(name).architecture
        shown = inputs["active_params"] - arch.embedding_params - arch.vision_params
        assert math.isclose(shown, active, rel_tol=0.2), (name, shown)
    else:
        assert inputs["active_params"] == inputs["params"]


def test_a_question_naming_llama4_scout_is_its_109b_moe(capsys):
    """ "Llama-4-Scout-17B-16E" is a 109B model with 17B active, not a dense 17B one: in bf16
    (218 GB) it does not fit one H100."""
    code = main(["ask", "can I run Llama-4-Scout-17B-16E on one H100 in bf16?", "--json"])
    body = json.loads(capsys.readouterr().out)
    assert code == 0 and body["status"] == "answered"
    assert body["inputs"]["params"] == 108_641_793_536
    assert body["verdict"] == "does_not_fit"
