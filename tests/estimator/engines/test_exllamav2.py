"""ExLlamaV2: EXL2 at any bits per weight, embeddings in RAM, cache modes, TabbyAPI flags."""

import pytest

from estimator import engines
from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.precision import weight_bytes, weight_format
from estimator.workload import Workload
from tests.estimator.test_engines_commands import flags


def test_any_bits_per_weight(arch):
    a = arch("Llama-3.1-8B")
    fmt = weight_format("4.65bpw")
    assert fmt.name == "exl2_4.65bpw" and fmt.bits == 4.65
    wb = weight_bytes(a, fmt)
    # Decoder linears at 4.65 bits, the output layer at 6 bits (head_bits), embeddings 16-bit.
    assert wb.linear == pytest.approx(a.linear_params * 4.65 / 8, abs=1)
    assert wb.lm_head == a.lm_head_params * 6 // 8
    assert wb.embedding == a.embedding_params * 2
    with pytest.raises(EstimatorError):
        weight_format("exl2_9bpw")


def test_embeddings_stay_in_ram_and_the_cache_is_whole(arch):
    a = arch("Llama-3.1-8B")
    w = Workload(
        model=a,
        task="inference",
        engine="exllamav2",
        precision="exl2_5bpw",
        kv_precision="q4_0",
        context=10_000,
    )
    est = estimate(w, machine(gpu="RTX 4090"))
    assert est.offload.ram_bytes == a.embedding_params * 2
    # Q4 cache: 4-bit values + an fp16 scale per 32 = 18/32 bytes; 10,000 tokens -> 10,240.
    assert est.components.kv_cache == round(2 * 32 * 8 * 128 * 18 / 32 * 10_240)
    assert est.devices[0].components.weights == (
        weight_bytes(a, weight_format("exl2_5bpw")).linear
        + a.other_params * 2
        + a.lm_head_params * 6 // 8
    )


def test_tabbyapi_command(arch):
    w = Workload(
        model=arch("Qwen2.5-32B"),
        task="inference",
        engine="exllamav2",
        precision="4.0bpw",
        kv_precision="q8_0",
        context=32_768,
        concurrency=2,
    )
    words, f = flags(engines.command(estimate(w, machine(gpu="RTX 3090", gpus=2))))
    assert words[:2] == ["python", "main.py"]
    assert f["--model-name"] == "Qwen2.5-32B-exl2_4bpw"
    assert f["--max-seq-len"] == "32768"
    assert f["--cache-size"] == "65536"
    assert f["--cache-mode"] == "Q8"
    assert f["--gpu-split-auto"] == "true"


def test_exl2_picks_exllamav2_on_its_own(arch):
    w = Workload(model=arch("Llama-3.1-8B"), task="inference", precision="exl2_6bpw")
    assert estimate(w, machine(gpu="RTX 4090")).inputs.engine == "exllamav2"
