"""The RoPE scaling a model card documents: which catalog models have it, the factor a context
needs, the longest context it reaches, and what a config that already carries one runs."""

from __future__ import annotations

import pytest

from estimator.curve import context_curve
from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.models import catalog, config_json, rope
from estimator.planner.context import longest_context
from estimator.workload import Workload, validate

# Qwen's cards: 32,768 positions natively, YaRN factor 4 to 131,072.
CARD = ("yarn", 4.0, 32_768)
WITH_YARN = (
    "Qwen3-4B",
    "Qwen3-8B",
    "Qwen3-14B",
    "Qwen3-32B",
    "Qwen3-30B-A3B",
    "Qwen3-235B-A22B",
    "Qwen2.5-Coder-7B",
    "Qwen2.5-Coder-14B",
    "Qwen2.5-Coder-32B",
)
# Cards that give the native length only: Qwen3 0.6B and 1.7B ("Context Length: 32,768"), the
# small Coders (their long-context section was taken out), Math (4,096), the 2507 models
# (262,144 natively).
WITHOUT = (
    "Qwen3-0.6B",
    "Qwen3-1.7B",
    "Qwen2.5-Coder-1.5B",
    "Qwen2.5-Math-7B",
    "Qwen3-235B-A22B-Instruct-2507",
    "Llama-3.1-8B",
)


@pytest.mark.parametrize("name", WITH_YARN)
def test_the_cards_that_document_yarn(arch, name):
    scaling = arch(name).rope_scaling
    assert scaling is not None
    assert (scaling.kind, scaling.factor, scaling.original) == CARD
    assert rope.longest(arch(name)) == 131_072
    assert scaling.source.startswith("model card huggingface.co/Qwen/")


@pytest.mark.parametrize("name", WITHOUT)
def test_models_without_a_documented_scaling_keep_their_configs_context(arch, name):
    assert arch(name).rope_scaling is None
    assert rope.longest(arch(name)) == arch(name).max_context


def test_the_official_quantized_repositories_share_the_scaling():
    fp8 = catalog.by_hf_id("Qwen/Qwen3-235B-A22B-FP8")
    assert (
        fp8 is not None
        and fp8.architecture.rope_scaling
        == catalog.find("Qwen3-235B-A22B").architecture.rope_scaling
    )


@pytest.mark.parametrize(
    ("context", "factor"),
    [
        # Up to the config's 40,960 nothing is scaled.
        (32_768, None),
        (40_960, None),
        # ceil(context / 32,768): 40,961 and 65,536 need 2 (the card's example: "65,536 tokens,
        # it would be better to set factor as 2.0"), 65,537 needs 3, 131,072 needs the card's 4.
        (40_961, 2.0),
        (65_536, 2.0),
        (65_537, 3.0),
        (98_304, 3.0),
        (98_305, 4.0),
        (131_072, 4.0),
        # Past the card's 131,072 there is no scaling to enable.
        (131_073, None),
    ],
)
def test_the_smallest_whole_factor_that_reaches_the_context(arch, context, factor):
    scaling = rope.needed(arch("Qwen3-235B-A22B"), context)
    assert (scaling.factor if scaling else None) == factor
    if scaling is not None:
        assert scaling.original == 32_768
        assert scaling.max_context >= context


def test_a_model_without_scaling_needs_none(arch):
    assert rope.needed(arch("Qwen3-0.6B"), 65_536) is None


def test_validate_accepts_up_to_the_scaled_length_and_names_both_past_it(arch):
    model = arch("Qwen3-235B-A22B")
    assert validate(Workload(model=model, task="inference", context=131_072)).context == 131_072
    with pytest.raises(EstimatorError) as refused:
        validate(Workload(model=model, task="inference", context=204_800))
    assert refused.value.code == "context_too_long_scaled"
    assert refused.value.params["limit"] == 131_072
    assert refused.value.params["native"] == 40_960


def test_validate_refuses_past_the_config_without_a_documented_scaling(arch):
    with pytest.raises(EstimatorError) as refused:
        validate(Workload(model=arch("Qwen3-0.6B"), task="inference", context=65_536))
    assert refused.value.code == "context_too_long"
    assert refused.value.params["limit"] == 40_960


def _qwen3_8b(**extra):
    return {
        "model_type": "qwen3",
        "vocab_size": 151_936,
        "hidden_size": 4096,
        "num_hidden_layers": 36,
        "intermediate_size": 12_288,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "max_position_embeddings": 40_960,
        **extra,
    }


@pytest.mark.parametrize(
    ("rope_scaling", "context"),
    [
        # The card's block added to config.json: vLLM derives 32,768 x 4.
        ({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768}, 131_072),
        # The older spelling ("type") the Qwen2.5 cards give.
        ({"type": "yarn", "factor": 2.0, "original_max_position_embeddings": 32_768}, 65_536),
        # A YaRN block shorter than the stated positions leaves them.
        ({"rope_type": "yarn", "factor": 1.0, "original_max_position_embeddings": 32_768}, 40_960),
        # Other kinds: max_position_embeddings already states the scaled length (Llama 3.1).
        ({"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}, 40_960),
        ({"type": "linear", "factor": 4.0}, 40_960),
        (None, 40_960),
    ],
)
def test_a_config_with_yarn_in_it_runs_the_stretched_context(rope_scaling, context):
    arch = config_json.from_dict(_qwen3_8b(rope_scaling=rope_scaling), "edited")
    assert arch.max_context == context
    assert arch.rope_scaling is None


@pytest.mark.parametrize(
    ("name", "context", "reach"),
    [
        # Within the config's context the longest stays there: scaling is not enabled unasked.
        ("Qwen3-8B", 40_960, 40_960),
        # Once the question needs the card's YaRN, up to the card's 131,072.
        ("Qwen3-8B", 65_536, 131_072),
        ("Qwen3-0.6B", 32_768, 40_960),
    ],
)
def test_how_far_a_question_may_grow(arch, name, context, reach):
    assert rope.reach(arch(name), context) == reach


def test_the_longest_context_of_a_scaled_plan_reaches_the_cards_length(arch):
    """Qwen3-8B on an H100 at 64k: 36 layers x 8 KV heads x 128 x 2 (K and V) x 2 bytes =
    147,456 bytes a token, 18 GiB at 131,072 tokens beside 15.3 GiB of weights, so the card's
    131,072 fits; the config's 40,960 no longer caps it."""
    w = Workload(model=arch("Qwen3-8B"), task="inference", engine="vllm", context=65_536)
    m = machine(gpu="H100")
    assert longest_context(w, m, estimate(w, m)) == 131_072


def test_the_memory_curve_of_a_scaled_question_runs_to_the_cards_length(arch):
    """1,024 doubling to 131,072 (eight points), the last the card's scaled length."""
    w = Workload(model=arch("Qwen3-8B"), task="inference", engine="vllm", context=65_536)
    curve = context_curve(w, machine(gpu="H100"))
    assert [context for context, _ in curve] == [1024 << i for i in range(8)]
