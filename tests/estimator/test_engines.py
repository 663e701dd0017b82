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


def test_engines_run_only_on_the_vendors_they_have_a_backend_for():
    """ExLlamaV2 builds for CUDA and ROCm, MLX for Apple only; llama.cpp and vLLM also run on
    Intel GPUs (SYCL/Vulkan, XPU); nothing but vLLM and transformers on Gaudi."""
    arc, radeon, gaudi = (machine(gpu=g) for g in ("Arc A770 16GB", "RX 7900 XTX", "Gaudi 2"))
    on_arc = {e.name for e in engines.on(arc)}
    assert on_arc == {"transformers", "vllm", "sglang", "llama.cpp", "ollama"}
    assert "exllamav2" in {e.name for e in engines.on(radeon)}
    assert {e.name for e in engines.on(gaudi)} == {"transformers", "vllm"}
    assert "mlx" not in {e.name for e in engines.on(machine(gpu="RTX 4090"))}


def test_vllm_runs_on_the_rocm_targets_its_docs_list():
    """gpu.rocm.inc.md: Radeon RX 7900 (gfx1100) yes, RX 6800 XT (gfx1030) no; llama.cpp's HIP
    and Vulkan builds run both."""
    vllm = engines.get("vllm")
    assert vllm.runs_on(machine(gpu="RX 7900 XTX")) and vllm.runs_on(machine(gpu="MI300X"))
    assert not vllm.runs_on(machine(gpu="RX 6800 XT"))
    assert engines.get("llama.cpp").runs_on(machine(gpu="RX 6800 XT"))


def test_on_an_intel_arc_the_plans_lead_with_llama_cpp_and_offer_no_exllamav2(arch):
    """The Arc A770 (16 GB) runs Llama 3.1 8B on llama.cpp first; vLLM's XPU build runs 4-bit
    AWQ/GPTQ through IPEX but no 8-bit GPTQ, and ExLlamaV2 has no Intel backend."""
    w = Workload(model=arch("Llama-3.1-8B"), task="inference")
    found = [p for p in plans(w, machine(gpu="Arc A770 16GB")) if p.kind != "as_asked"]
    assert found[0].engine == "llama.cpp"
    assert "exllamav2" not in {p.engine for p in found}
    assert "gptq-int8" not in {p.precision for p in found if p.engine == "vllm"}
