"""MoE expert offload (llama.cpp --n-cpu-moe): experts in RAM, the rest on the GPU."""

import math

from estimator import engines
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.precision import GGUF_BPW
from estimator.report import report
from estimator.workload import Workload
from tests.estimator.test_engines_commands import flags


def _workload(arch):
    return Workload(
        model=arch("Qwen3-30B-A3B"),
        task="inference",
        engine="llama.cpp",
        precision="q4_k_m",
        context=8192,
    )


def test_fewest_leading_layers_whose_experts_go_to_ram(arch):
    a = arch("Qwen3-30B-A3B")
    est = estimate(_workload(arch), machine(gpu="RTX 3060", ram_gb=64))
    assert est.verdict == "offload"
    device = est.devices[0]
    # Every one of the 48 layers has 128 experts of gate, up and down (2048 x 768 each); in
    # Q4_K_M (4.8944 bits per weight) one layer's experts take:
    per_layer = 128 * 3 * 2048 * 768 * GGUF_BPW["q4_k_m"] / 8
    n = math.ceil((device.components.total - device.usable_bytes) / per_layer)
    off = est.offload
    assert off.expert_layers == n and off.moe_layers == 48 and off.gpu_layers is None
    # RAM holds those experts and the input embeddings (llama.cpp keeps them in host memory).
    embeddings = a.embedding_params * GGUF_BPW["q4_k_m"] / 8
    assert abs(off.ram_bytes - (n * per_layer + embeddings)) < 48 * 8
    assert off.gpu_bytes <= device.usable_bytes


def test_command_keeps_the_experts_of_the_first_n_layers_on_the_cpu(arch):
    est = estimate(_workload(arch), machine(gpu="RTX 3060", ram_gb=64))
    _, f = flags(engines.command(est))
    assert f["--n-cpu-moe"] == str(est.offload.expert_layers)
    assert f["-ngl"] == "999"


def test_decode_waits_for_the_experts_read_from_ram(arch):
    hw = machine(gpu="RTX 3060", ram_gb=64, cpu="ddr5-6000")
    rep = report(_workload(arch), hw)
    off = rep.estimate.offload
    # One token reads 8 of 128 experts per layer from the layers kept in RAM.
    ram_read = 8 * 3 * 2048 * 768 * GGUF_BPW["q4_k_m"] / 8 * off.expert_layers
    fastest_cpu = hw.cpu.bandwidth_gbs * 1e9 * 0.75  # llama.cpp's best CPU efficiency
    assert rep.speed.decode_per_sequence.high <= fastest_cpu / ram_read
    on_gpu = report(_workload(arch), machine(gpu="RTX 4090", ram_gb=64))
    assert on_gpu.estimate.offload is None or not on_gpu.estimate.offload.expert_layers
    assert rep.speed.decode_per_sequence.high < on_gpu.speed.decode_per_sequence.low


def test_dense_models_offload_whole_layers(arch):
    w = Workload(model=arch("Llama-3.1-70B"), task="inference", engine="llama.cpp")
    off = estimate(w, machine(gpu="RTX 4090", ram_gb=64)).offload
    assert off.expert_layers == 0 and 0 < off.gpu_layers < 80
