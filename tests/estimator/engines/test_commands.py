"""Every launch command parsed back into flags: what it runs is what was estimated."""

from __future__ import annotations

import shlex

import pytest

from estimator import engines
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.workload import Workload


def flags(command: str) -> tuple[list[str], dict[str, str]]:
    """(positional words, {flag: value}) of a command line; a flag without value maps to ""."""
    words = shlex.split(command)
    positional, out = [], {}
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("-"):
            value = words[i + 1] if i + 1 < len(words) and not words[i + 1].startswith("-") else ""
            out[word] = value
            i += 2 if value else 1
        else:
            positional.append(word)
            i += 1
    return positional, out


def test_vllm_serves_what_was_estimated(arch):
    w = Workload(
        model=arch("Qwen2.5-72B"),
        task="inference",
        engine="vllm",
        precision="awq",
        kv_precision="fp8",
        context=32_768,
        gpu_memory_utilization=0.6,
    )
    est = estimate(w, machine(gpu="A100 80GB", gpus=2))
    words, f = flags(engines.command(est))
    assert words[:2] == ["vllm", "serve"]
    # The AWQ checkpoint Qwen publishes, not the 145 GB bf16 repository.
    assert words[2] == "Qwen/Qwen2.5-72B-Instruct-AWQ"
    assert f["--gpu-memory-utilization"] == "0.6"
    assert f["--max-model-len"] == "32768"
    assert f["--tensor-parallel-size"] == "2"
    assert f["--kv-cache-dtype"] == "fp8"
    assert "--quantization" not in f  # read from the checkpoint's config


def test_vllm_fp8_quantizes_at_load_time(arch):
    w = Workload(model=arch("Llama-3.1-8B"), task="inference", engine="vllm", precision="fp8")
    words, f = flags(engines.command(estimate(w, machine(gpu="L40S"))))
    assert words[2] == "meta-llama/Llama-3.1-8B"
    assert f["--quantization"] == "fp8"
    assert f["--gpu-memory-utilization"] == "0.9"
    assert "--tensor-parallel-size" not in f


def test_vllm_awq_without_a_known_checkpoint_names_what_to_fetch(arch):
    w = Workload(model=arch("Mistral-7B-v0.3"), task="inference", engine="vllm", precision="awq")
    command = engines.command(estimate(w, machine(gpu="RTX 4090")))
    assert "<AWQ checkpoint of mistralai/Mistral-7B-v0.3>" in command


def test_llamacpp_command_carries_context_layers_slots_and_kv_type(arch):
    w = Workload(
        model=arch("Qwen2.5-32B"),
        task="inference",
        engine="llama.cpp",
        precision="q4_k_m",
        kv_precision="q8_0",
        context=8192,
        concurrency=2,
    )
    est = estimate(w, machine(gpu="RTX 4090"))
    words, f = flags(engines.command(est))
    assert words[0] == "llama-server"
    assert f["-m"] == "Qwen2.5-32B-Q4_K_M.gguf"
    assert f["-c"] == str(8192 * 2)  # llama-server splits -c over its --parallel slots
    assert f["--parallel"] == "2"
    assert f["-ngl"] == "999"
    assert f["--cache-type-k"] == f["--cache-type-v"] == "q8_0"
    assert f["-fa"] == "on"


def test_llamacpp_offload_command_states_the_gpu_layers(arch):
    w = Workload(model=arch("Llama-3.1-70B"), task="inference", engine="llama.cpp")
    est = estimate(w, machine(gpu="RTX 4090", ram_gb=64))
    assert est.verdict == "offload"
    _, f = flags(engines.command(est))
    assert int(f["-ngl"]) == est.offload.gpu_layers < 80


def test_transformers_command_loads_the_estimated_format(arch):
    w = Workload(model=arch("Qwen2.5-7B"), task="inference", precision="nf4")
    command = engines.command(estimate(w, machine(gpu="RTX 3060")))
    assert 'from_pretrained("Qwen/Qwen2.5-7B"' in command
    assert 'bnb_4bit_quant_type="nf4"' in command
    assert "max_length=4096" in command


@pytest.mark.parametrize("name", list(engines.ENGINES))
def test_every_rung_of_the_ladder_resolves_and_names_its_format(arch, name):
    """A search over an engine's ladder only proposes formats the engine runs, and its command
    loads exactly that format."""
    engine = engines.get(name)
    for precision in engine.ladder:
        w = Workload(model=arch("Llama-3.1-8B"), task="inference", engine=name, precision=precision)
        hw = machine(gpu="H100") if "gpu" in engine.devices else machine(gpu="M2 Max 64GB")
        est = estimate(w, hw)
        assert est.inputs.precision == precision
        assert est.inputs.engine == name
        command = engines.command(est)
        assert command
        if precision in ("bf16",):
            assert "meta-llama/Llama-3.1-8B" in command
