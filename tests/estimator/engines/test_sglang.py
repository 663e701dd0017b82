"""SGLang: weights and KV pool within --mem-fraction-static, its TP-dependent default."""

import pytest

from estimator import engines
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.memory import constants as k
from estimator.workload import Workload
from tests.estimator.test_engines_commands import flags

GIB = 1 << 30


@pytest.mark.parametrize(("gpus", "fraction"), [(1, 0.88), (2, 0.87), (4, 0.85), (8, 0.81)])
def test_default_fraction_by_tensor_parallel_size(arch, gpus, fraction):
    w = Workload(model=arch("Llama-3.1-8B"), task="inference", engine="sglang")
    est = estimate(w, machine(gpu="H100", gpus=gpus))
    assert est.inputs.gpu_memory_utilization == fraction
    capacity = est.devices[0].capacity_bytes
    assert est.devices[0].usable_bytes == int(capacity * fraction) - k.CUDA_CONTEXT_BYTES


def test_pool_holds_weights_and_token_granular_kv(arch):
    a = arch("Llama-3.1-8B")
    w = Workload(model=a, task="inference", engine="sglang", context=1000, concurrency=3)
    device = estimate(w, machine(gpu="L40S")).devices[0].components
    # bf16 weights, and a KV cache of exactly 3 x 1000 tokens (page size 1): 2 x 32 layers x
    # 8 KV heads x 128 dims x 2 bytes per token.
    assert device.weights == a.params * 2
    assert device.kv_cache == 2 * 32 * 8 * 128 * 2 * 3000
    assert device.activations == device.overhead == 0


def test_launch_command(arch):
    w = Workload(
        model=arch("Qwen2.5-72B"),
        task="inference",
        engine="sglang",
        precision="awq",
        kv_precision="fp8",
        context=8192,
    )
    command = engines.command(estimate(w, machine(gpu="A100 80GB", gpus=2)))
    words, f = flags(command)
    assert words == ["python"] and f["-m"] == "sglang.launch_server"
    assert f["--model-path"] == "Qwen/Qwen2.5-72B-Instruct-AWQ"
    assert f["--mem-fraction-static"] == "0.87"
    assert f["--tp"] == "2"
    assert f["--context-length"] == "8192"
    assert f["--kv-cache-dtype"] == "fp8_e4m3"
