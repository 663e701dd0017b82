"""Every launch command parsed back into flags: what it runs is what was estimated."""

from __future__ import annotations

import ast
import json
import re
import shlex
from dataclasses import replace

import pytest

from estimator import engines
from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.models import catalog
from estimator.models.types import Architecture
from estimator.planner.search import plans
from estimator.precision import weight_format
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


def _qwen3_coder_fp8() -> Architecture:
    found = catalog.by_hf_id("Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8")
    assert found is not None
    return found.architecture


def test_vllm_serves_a_published_fp8_release_by_its_whole_repository():
    """The question named Qwen's FP8 release: the command loads Qwen/...-FP8 (organisation
    included) and leaves --quantization to its config.json."""
    w = Workload(model=_qwen3_coder_fp8(), task="inference", engine="vllm", precision="fp8")
    words, f = flags(engines.command(estimate(w, machine(gpu="H100", gpus=8))))
    assert words[2] == "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8"
    assert "--quantization" not in f


@pytest.mark.parametrize(("gpus", "expert_parallel"), [(8, True), (4, False), (2, False)])
def test_vllm_spreads_whole_experts_when_fp8_blocks_cannot_split_them(gpus, expert_parallel):
    """Qwen3-Coder-480B's experts are 2560 wide (moe_intermediate_size): 8 ranks get 320 rows
    each, not a multiple of the 128-row FP8 block, so vLLM needs --enable-expert-parallel; 4
    ranks get 640 (5 blocks) and 2 get 1280 (10), which tensor parallel splits."""
    w = Workload(model=_qwen3_coder_fp8(), task="inference", engine="vllm")
    est = estimate(w, machine(gpu="H200", gpus=gpus))
    _, f = flags(engines.command(est))
    assert ("--enable-expert-parallel" in f) is expert_parallel
    note = next((n for n in est.steps if n.key == "vllm_expert_parallel"), None)
    if expert_parallel:
        assert note is not None
        assert note.params == {"width": 2560, "devices": 8, "slice": 320, "block": 128}
    else:
        assert note is None


def test_the_bf16_model_at_fp8_loads_the_block_fp8_release_and_spreads_its_experts(arch):
    """Asking for the bf16 catalog model in fp8 serves Qwen's per-block FP8 checkpoint, so the
    same block rule holds; Llama 3.1 8B quantized to FP8 at load time has no experts to split."""
    w = Workload(model=arch("Qwen3-Coder-480B-A35B"), task="inference", engine="vllm")
    words, f = flags(
        engines.command(estimate(replace(w, precision="fp8"), machine(gpu="H200", gpus=8)))
    )
    assert words[2] == "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8"
    assert "--enable-expert-parallel" in f
    dense = Workload(model=arch("Llama-3.1-8B"), task="inference", engine="vllm", precision="fp8")
    _, f = flags(engines.command(estimate(dense, machine(gpu="H100", gpus=8))))
    assert "--enable-expert-parallel" not in f


def test_fp8_weights_on_an_a100_are_noted_as_marlin_weight_only():
    """The A100 has no FP8 tensor cores: vLLM runs the FP8 release as W8A16 through Marlin
    (noted); an H100 runs it natively (no note); a V100 cannot run it on vLLM at all."""
    w = Workload(model=_qwen3_coder_fp8(), task="inference", engine="vllm")
    on_a100 = estimate(w, machine(gpu="A100 80GB", gpus=8))
    marlin = [n for n in on_a100.assumptions if n.key == "fp8_weight_only"]
    assert marlin and marlin[0].params == {"gpu": "A100 80GB SXM4", "engine": "vLLM"}
    on_h100 = estimate(w, machine(gpu="H100", gpus=8))
    assert not any(n.key == "fp8_weight_only" for n in on_h100.assumptions)
    vllm = engines.get("vllm")
    fp8_block = weight_format("fp8_block")
    assert vllm.runs_format(fp8_block, machine(gpu="A100 80GB"))
    assert not vllm.runs_format(fp8_block, machine(gpu="Tesla V100 32GB"))


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


# What each engine's command says about the estimate's inputs, read back from its words: the
# weight format, the context of one sequence, the KV cache type, the GPUs and the share of each
# GPU. A key is absent when the engine's command does not state it (llama.cpp, Ollama and
# transformers use every visible GPU; only vLLM and SGLang take a share of memory).
_QUANTIZATION_REPO = {"AWQ": "awq", "GPTQ 8-bit": "gptq-int8"}


def _vllm_format(command: str, f: dict[str, str]) -> str:
    # The checkpoint, or "<AWQ checkpoint of ...>" naming what to fetch.
    found = re.search(r"(?:serve|--model-path) (<[^>]*>|\S+)", command)
    assert found is not None
    repo = found.group(1)
    if "--quantization" in f:
        return f["--quantization"]
    named = [fmt for word, fmt in _QUANTIZATION_REPO.items() if word in repo]
    return named[0] if named else ("fp16" if f.get("--dtype") == "float16" else "bf16")


def _read_vllm(command: str) -> dict[str, object]:
    _, f = flags(command)
    return {
        "precision": _vllm_format(command, f),
        "context": int(f["--max-model-len"]),
        "kv_precision": f.get("--kv-cache-dtype", "bf16"),
        "gpus": int(f.get("--tensor-parallel-size", "1")),
        "utilization": float(f["--gpu-memory-utilization"]),
    }


def _read_sglang(command: str) -> dict[str, object]:
    _, f = flags(command)
    # SGLang names vLLM's fp8 KV cache by its element type.
    kv = {"fp8_e4m3": "fp8"}.get(f.get("--kv-cache-dtype", ""), "bf16")
    return {
        "precision": _vllm_format(command, f),
        "context": int(f["--context-length"]),
        "kv_precision": kv,
        "gpus": int(f.get("--tp", "1")),
        "utilization": float(f["--mem-fraction-static"]),
    }


def _read_llamacpp(command: str) -> dict[str, object]:
    _, f = flags(command)
    slots = int(f.get("--parallel", "1"))
    assert f.get("--cache-type-k") == f.get("--cache-type-v")
    return {
        "precision": f["-m"].removesuffix(".gguf").rsplit("-", 1)[1].lower(),
        # llama-server's -c is the total over its slots.
        "context": int(f["-c"]) // slots,
        "kv_precision": f.get("--cache-type-k", "fp16"),
    }


def _read_ollama(command: str) -> dict[str, object]:
    env = dict(w.split("=", 1) for w in shlex.split(command) if "=" in w)
    run = shlex.split(command)[-1]
    quant = run.split(":")[1].split("-")[-1]
    # A bare library tag ("llama3.1:8b") is Ollama's Q4_K_M download (ollama.com/library).
    precision = {"fp16": "f16"}.get(quant.lower(), quant.lower()) if "-" in run else "q4_k_m"
    return {
        "precision": precision,
        "context": int(env["OLLAMA_CONTEXT_LENGTH"]),
        "kv_precision": env.get("OLLAMA_KV_CACHE_TYPE", "fp16"),
    }


def _read_mlx(command: str) -> dict[str, object]:
    _, f = flags(command)
    model = f["--model"]
    bits = f.get("--q-bits") or (
        model.rsplit("-", 1)[1].removesuffix("bit") if "bit" in model else ""
    )
    return {
        "precision": f"mlx_q{bits}" if bits else "bf16",
        "sequences": int(f.get("--decode-concurrency", "1")),
    }


def _read_transformers(command: str) -> dict[str, object]:
    load = {
        "load_in_4bit=True": "nf4",
        "load_in_8bit=True": "int8",
        "FineGrainedFP8Config": "fp8",
        "torch.float16": "fp16",
    }
    precision = next((fmt for word, fmt in load.items() if word in command), "bf16")
    return {
        "precision": precision,
        "context": int(command.split("max_length=")[1].split(",")[0].rstrip(")")),
        "kv_precision": "int8" if '"nbits": 8' in command else "bf16",
    }


def _read_exllamav2(command: str) -> dict[str, object]:
    _, f = flags(command)
    cache = {"FP16": "fp16", "Q8": "q8_0", "Q6": "q6", "Q4": "q4_0"}
    # TabbyAPI refuses a cache that is not a multiple of 256 tokens or shorter than one sequence.
    assert int(f["--cache-size"]) % 256 == 0
    assert int(f["--cache-size"]) >= int(f["--max-seq-len"])
    return {
        "precision": f["--model-name"].rsplit("-", 1)[1],
        "context": int(f["--max-seq-len"]),
        "kv_precision": cache[f["--cache-mode"]],
        "gpus": 2 if f.get("--gpu-split-auto") == "true" else 1,
    }


READERS = {
    "vllm": _read_vllm,
    "sglang": _read_sglang,
    "llama.cpp": _read_llamacpp,
    "ollama": _read_ollama,
    "mlx": _read_mlx,
    "transformers": _read_transformers,
    "exllamav2": _read_exllamav2,
}


def test_every_engine_has_a_reader():
    assert set(READERS) == set(engines.ENGINES)


@pytest.mark.parametrize(
    ("name", "precision", "eight_bit_kv"),
    [
        (name, precision, eight_bit_kv)
        for name, engine in engines.ENGINES.items()
        for precision in engine.ladder
        for eight_bit_kv in (False, True)
    ],
)
def test_every_rung_launches_what_was_estimated(arch, name, precision, eight_bit_kv):
    """6,000 tokens (not a multiple of any engine's block), three users, 80% of two H100s (an
    M2 Max for MLX), with the default or the 8-bit KV cache: the command states each."""
    engine = engines.get(name)
    on_gpu = "gpu" in engine.devices
    w = Workload(
        model=arch("Llama-3.1-8B"),
        task="inference",
        engine=name,
        precision=precision,
        kv_precision=engine.kv8 if eight_bit_kv else None,
        context=6000,
        concurrency=3,
        gpu_memory_utilization=0.8,
    )
    est = estimate(w, machine(gpu="H100", gpus=2) if on_gpu else machine(gpu="M2 Max 64GB"))
    i = est.inputs
    stated = READERS[name](engines.command(est))
    expected = {
        "precision": i.precision,
        "context": i.context,
        "kv_precision": i.kv_precision,
        "gpus": i.gpu_count,
        "utilization": i.gpu_memory_utilization,
        "sequences": i.concurrency * i.batch,
    }
    assert stated == {key: expected[key] for key in stated}
    # mlx_lm.server takes no context limit (only mlx_lm.generate has --max-kv-size).
    assert {"precision", "context"} - ({"context"} if name == "mlx" else set()) <= set(stated)


def test_llama_cpp_on_a_cpu_offloads_no_layers_to_a_gpu_it_does_not_have(arch):
    w = Workload(model=arch("Llama-3.2-3B"), task="inference", engine="llama.cpp")
    on_cpu = flags(engines.command(estimate(w, machine(gpu="cpu", ram_gb=8))))[1]
    assert "-ngl" not in on_cpu and on_cpu["-c"] == "4096"
    on_gpu = flags(engines.command(estimate(w, machine(gpu="RTX 3060"))))[1]
    assert on_gpu["-ngl"] == "999"


# The RoPE scaling each command enables, read back: (kind, factor, original positions).
def _rope_vllm(command: str) -> tuple[str, float, int]:
    fields = json.loads(flags(command)[1]["--hf-overrides"])["rope_scaling"]
    return fields["rope_type"], fields["factor"], fields["original_max_position_embeddings"]


def _rope_sglang(command: str) -> tuple[str, float, int]:
    _, f = flags(command)
    override = json.loads(f["--json-model-override-args"])
    # SGLang's longest context is max_position_embeddings once rope_scaling names the original.
    assert override["max_position_embeddings"] >= int(f["--context-length"])
    fields = override["rope_scaling"]
    return fields["rope_type"], fields["factor"], fields["original_max_position_embeddings"]


def _rope_llamacpp(command: str) -> tuple[str, float, int]:
    _, f = flags(command)
    return f["--rope-scaling"], float(f["--rope-scale"]), int(f["--yarn-orig-ctx"])


def _rope_mlx(command: str) -> tuple[str, float, int]:
    edit = re.search(r'p = "([^"]+)/config.json".*c\["rope_scaling"\] = (\{[^}]*\})', command)
    assert edit is not None
    # The folder whose config.json gets the block is the one mlx_lm.server loads.
    assert edit.group(1) == flags(command.rsplit("&&", 1)[1])[1]["--model"]
    fields = json.loads(edit.group(2))
    return fields["rope_type"], fields["factor"], fields["original_max_position_embeddings"]


def _rope_transformers(command: str) -> tuple[str, float, int]:
    found = re.search(r"rope_scaling=(\{[^}]*\})", command)
    assert found is not None
    fields = ast.literal_eval(found.group(1))
    return fields["rope_type"], fields["factor"], fields["original_max_position_embeddings"]


ROPE_READERS = {
    "vllm": _rope_vllm,
    "sglang": _rope_sglang,
    "llama.cpp": _rope_llamacpp,
    "mlx": _rope_mlx,
    "transformers": _rope_transformers,
}


def test_the_engines_that_scale_rope_have_a_reader():
    assert set(ROPE_READERS) == {n for n, e in engines.ENGINES.items() if e.scales_rope}


@pytest.mark.parametrize("name", sorted(ROPE_READERS))
@pytest.mark.parametrize(("context", "factor"), [(65_536, 2.0), (131_072, 4.0)])
def test_a_context_past_the_config_launches_the_cards_yarn(arch, name, context, factor):
    """Qwen3-8B's config runs 40,960 tokens; its card's YaRN (factor 4 on 32,768) reaches
    131,072, and 65,536 needs factor 2: the command enables it and serves the context."""
    engine = engines.get(name)
    w = Workload(model=arch("Qwen3-8B"), task="inference", engine=name, context=context)
    est = estimate(
        w, machine(gpu="H100") if "gpu" in engine.devices else machine(gpu="M2 Max 64GB")
    )
    command = engines.command(est)
    kind, scale, original = ROPE_READERS[name](command)
    assert (kind, scale, original) == ("yarn", factor, 32_768)
    # mlx_lm.server states no context; the scaled positions still cover it.
    assert READERS[name](command).get("context", context) == context <= scale * original


@pytest.mark.parametrize("name", sorted(ROPE_READERS))
def test_within_the_configs_context_no_command_scales(arch, name):
    engine = engines.get(name)
    w = Workload(model=arch("Qwen3-8B"), task="inference", engine=name, context=40_960)
    est = estimate(
        w, machine(gpu="H100") if "gpu" in engine.devices else machine(gpu="M2 Max 64GB")
    )
    assert "rope" not in engines.command(est) and "yarn" not in engines.command(est)


@pytest.mark.parametrize("name", ["ollama", "exllamav2"])
def test_an_engine_without_a_rope_setting_refuses_the_scaled_context(arch, name):
    w = Workload(model=arch("Qwen3-8B"), task="inference", engine=name, context=65_536)
    with pytest.raises(EstimatorError) as refused:
        estimate(w, machine(gpu="RTX 4090"))
    assert refused.value.code == "rope_scaling_not_in_engine"
    assert refused.value.params["native"] == 40_960
    assert "vLLM" in refused.value.params["known"]


def test_every_plan_for_64k_on_qwen3_235b_enables_yarn(arch):
    """Qwen3-235B-A22B for agentic coding at 64k on 2x RTX 6000 Ada: every plan's command,
    on the user's GPUs, more of them or rented, runs 65,536 tokens on YaRN factor 2."""
    w = Workload(model=arch("Qwen3-235B-A22B"), task="inference", context=65_536)
    found = plans(w, machine(gpu="RTX 6000 Ada", gpus=2))
    assert found
    for plan in found:
        assert ROPE_READERS[plan.engine](plan.command) == ("yarn", 2.0, 32_768), plan.command
        assert READERS[plan.engine](plan.command)["context"] == 65_536
