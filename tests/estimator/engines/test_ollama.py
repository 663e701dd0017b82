"""Ollama: llama.cpp's memory with Ollama's context default, library tags and settings."""

import pytest

from estimator import engines
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.workload import Workload
from tests.estimator.test_engines_commands import flags


@pytest.mark.parametrize(
    ("hardware", "context"),
    [
        (dict(gpu="RTX 3060"), 4096),  # 12 GiB < 23 GiB
        (dict(gpu="RTX 4090"), 32_768),  # 24 GiB >= 23 GiB
        (dict(gpu="RTX 3090", gpus=2), 262_144 // 2),  # 48 GiB >= 47, capped at the model's 131,072
        (dict(gpu="cpu", ram_gb=64), 4096),
    ],
)
def test_context_follows_total_vram(arch, hardware, context):
    w = Workload(model=arch("Llama-3.1-8B"), task="inference", engine="ollama")
    est = estimate(w, machine(**hardware))
    assert est.inputs.context == context


def test_same_memory_as_llama_cpp_for_the_same_settings(arch):
    w = Workload(model=arch("Qwen2.5-14B"), task="inference", context=8192, precision="q4_k_m")
    hw = machine(gpu="RTX 4090")
    from dataclasses import replace

    ollama = estimate(replace(w, engine="ollama"), hw)
    llama = estimate(replace(w, engine="llama.cpp"), hw)
    assert ollama.components == llama.components


def test_run_command_names_the_library_tag_and_settings(arch):
    w = Workload(
        model=arch("Qwen2.5-32B"),
        task="inference",
        engine="ollama",
        precision="q8_0",
        kv_precision="q8_0",
        context=16_384,
        concurrency=2,
    )
    command = engines.command(estimate(w, machine(gpu="A100 80GB")))
    serve, run = command.split(" & ")
    words, _ = flags(serve)
    env = dict(word.split("=") for word in words if "=" in word)
    assert env == {
        "OLLAMA_CONTEXT_LENGTH": "16384",
        "OLLAMA_NUM_PARALLEL": "2",
        "OLLAMA_FLASH_ATTENTION": "1",
        "OLLAMA_KV_CACHE_TYPE": "q8_0",
    }
    assert run == "ollama run qwen2.5:32b-instruct-q8_0"


def test_default_download_is_the_bare_tag_and_offload_pins_num_gpu(arch):
    w = Workload(model=arch("Llama-3.1-70B"), task="inference", engine="ollama", context=4096)
    est = estimate(w, machine(gpu="RTX 4090", ram_gb=64))
    assert est.inputs.precision == "q4_k_m" and est.verdict == "offload"
    command = engines.command(est)
    assert f"FROM llama3.1:70b\\nPARAMETER num_gpu {est.offload.gpu_layers}\\n" in command
    assert "ollama create" in command


def test_unknown_models_run_from_a_hugging_face_gguf(arch):
    w = Workload(model=arch("OLMo-2-7B"), task="inference", engine="ollama", precision="q6_k")
    command = engines.command(estimate(w, machine(gpu="RTX 4090")))
    assert command.endswith("ollama run hf.co/<GGUF repository of allenai/OLMo-2-1124-7B>:Q6_K")
