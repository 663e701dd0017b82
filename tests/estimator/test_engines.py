"""What people type for an engine finds it, wherever the estimator looks it up."""

import pytest

from estimator import engines
from estimator.errors import EstimatorError
from estimator.hardware.catalog import machine
from estimator.planner import plans
from estimator.workload import Workload, validate


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("LM Studio", "llama.cpp"),
        ("lmstudio", "llama.cpp"),
        ("gguf", "llama.cpp"),
        ("tabbyapi", "exllamav2"),
        ("vllm", "vllm"),
    ],
)
def test_a_typed_name_is_its_engine(typed, name):
    assert engines.canonical(typed) == name
    assert engines.get(typed).name == name


def test_an_alias_plans_as_its_engine(arch):
    """The planner is handed the workload as the question named it."""
    w = Workload(model=arch("Llama-3.1-8B"), task="inference", engine="lm studio")
    assert validate(w).engine == "llama.cpp"
    found = plans(w, machine(gpu="RTX 4090"))
    assert found and found[0].engine == "llama.cpp"


def test_an_unknown_engine_is_refused_with_the_known_ones():
    with pytest.raises(EstimatorError) as refused:
        engines.get("koboldai")
    assert refused.value.code == "unknown_engine"


def test_exllamav2_plans_only_the_architectures_it_implements(arch):
    """exllamav2/architecture.py loads an unknown architecture as Llama, which a Llama 4 MoE or
    DeepSeek's MLA is not: no TabbyAPI command for them, one for Mixtral and Qwen2.5."""
    exl2 = engines.get("exllamav2")
    assert not exl2.runs_model(arch("Llama-4-Scout-17B-16E"))
    assert not exl2.runs_model(arch("DeepSeek-R1"))
    assert exl2.runs_model(arch("Mixtral-8x7B-v0.1")) and exl2.runs_model(arch("Qwen2.5-32B"))
    assert engines.get("llama.cpp").runs_model(arch("Llama-4-Scout-17B-16E"))
