"""MLX: its affine quantization, its KV step, and mlx-lm's own benchmark table."""

import pytest

from estimator import engines
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.precision import weight_bytes, weight_format
from estimator.report import report
from estimator.workload import Workload

M4_MAX = dict(gpu="M4 Max 64GB")
# mlx_lm/BENCHMARKS.md @a4c6470 (mlx_lm.benchmark -p 2048 -g 128, 64 GB M4 Max, mlx-lm 0.28.2):
# peak memory in GB (1e9) and generation tokens/s, calibration rows NG149-NG153 and the same
# table's q6/q5 rows.
ROWS = [
    ("Qwen3-4B", "bf16", 9.02, 52.47),
    ("Qwen3-4B", "mlx_q8", 5.254, 86.907),
    ("Qwen3-4B", "mlx_q6", 4.25, 104.68),
    ("Qwen3-4B", "mlx_q5", 3.86, 116.39),
    ("Qwen3-4B", "mlx_q4", 3.35, 134.52),
    ("Qwen3-30B-A3B", "mlx_q8", 33.46, 83.16),
    ("Qwen3-30B-A3B", "mlx_q6", 25.82, 94.14),
    ("Qwen3-30B-A3B", "mlx_q5", 22.01, 101.00),
    ("Qwen3-30B-A3B", "mlx_q4", 18.20, 113.33),
]


def test_affine_4bit_is_four_and_a_half_bits_everywhere_but_the_norms(arch):
    a = arch("Qwen3-4B")
    # Every matrix dimension of Qwen3-4B divides by the group of 64: 4 bits + a 16-bit scale
    # and a 16-bit bias per 64 values = 4.5 bits; embeddings quantized too; norms stay 16-bit.
    expected = (a.params - a.other_params) * 4.5 / 8 + a.other_params * 2
    assert weight_bytes(a, weight_format("mlx_q4")).total == pytest.approx(expected, abs=1)
    assert weight_format("mlx-8bit").name == "mlx_q8"


@pytest.mark.parametrize(("model", "precision", "peak_gb", "tokens_per_s"), ROWS)
def test_mlx_benchmark_rows(arch, model, precision, peak_gb, tokens_per_s):
    w = Workload(
        model=arch(model),
        task="inference",
        engine="mlx",
        precision=precision,
        context=2048 + 128,
        prompt_tokens=2048,
    )
    rep = report(w, machine(**M4_MAX))
    assert rep.estimate.total_bytes / 1e9 == pytest.approx(peak_gb, rel=0.03)
    decode = rep.speed.decode_per_sequence
    assert decode.low <= tokens_per_s <= decode.high


def test_kv_cache_grows_in_steps_of_256(arch):
    a = arch("Qwen3-4B")
    hw = machine(**M4_MAX)
    base = Workload(model=a, task="inference", engine="mlx", context=2049)
    kv = estimate(base, hw).components.kv_cache
    # 2 x 36 layers x 8 KV heads x 128 dims x 2 bytes per token, 2049 tokens -> 2304 slots.
    assert kv == 2 * 36 * 8 * 128 * 2 * 2304


def test_mlx_runs_only_on_apple(arch):
    assert engines.get("mlx").runs_on(machine(**M4_MAX))
    assert not engines.get("mlx").runs_on(machine(gpu="RTX 4090"))


def test_mlx_command_loads_mlx_communitys_conversion_with_the_estimated_context(arch):
    w = Workload(
        model=arch("Qwen2.5-7B"), task="inference", engine="mlx", precision="int4", context=6000
    )
    est = estimate(w, machine(**M4_MAX))
    assert est.inputs.precision == "mlx_q4"
    # mlx-community's model card: "converted to MLX format from Qwen/Qwen2.5-7B-Instruct".
    assert engines.command(est) == ("mlx_lm.server --model mlx-community/Qwen2.5-7B-Instruct-4bit")


def test_mlx_command_converts_what_mlx_community_does_not_publish(arch):
    w = Workload(model=arch("Mistral-7B-v0.3"), task="inference", engine="mlx", precision="mlx_q6")
    command = engines.command(estimate(w, machine(**M4_MAX)))
    assert command.startswith(
        "mlx_lm.convert --hf-path mistralai/Mistral-7B-v0.3 -q --q-bits 6 --q-group-size 64 "
        "--mlx-path Mistral-7B-v0.3-6bit && "
    )
    assert command.endswith("mlx_lm.server --model Mistral-7B-v0.3-6bit")
    bf16 = estimate(
        Workload(
            model=arch("Qwen2.5-7B"),
            task="inference",
            engine="mlx",
            precision="bf16",
            concurrency=4,
        ),
        machine(**M4_MAX),
    )
    assert engines.command(bf16) == ("mlx_lm.server --model Qwen/Qwen2.5-7B --decode-concurrency 4")


@pytest.mark.parametrize(
    ("model", "engine"),
    [
        # mlx-community publishes Qwen3-30B-A3B-4bit: MLX, what Mac users run.
        ("Qwen3-30B-A3B", "mlx"),
        # No MLX conversion published: the GGUF on llama.cpp.
        ("Mistral-7B-v0.3", "llama.cpp"),
    ],
)
def test_apple_default_engine_is_mlx_where_a_conversion_is_published(arch, model, engine):
    est = estimate(Workload(model=arch(model), task="inference"), machine(gpu="M3 Max 64GB"))
    assert est.inputs.engine == engine
    assert est.inputs.precision == {"mlx": "mlx_q4", "llama.cpp": "q4_k_m"}[engine]


def test_off_apple_the_default_engine_is_unchanged(arch):
    a = arch("Qwen3-30B-A3B")
    one = estimate(Workload(model=a, task="inference"), machine(gpu="RTX 4090"))
    many = estimate(Workload(model=a, task="inference", concurrency=8), machine(gpu="H100"))
    cpu = estimate(Workload(model=a, task="inference"), machine(gpu="cpu", ram_gb=64))
    assert (one.inputs.engine, many.inputs.engine, cpu.inputs.engine) == (
        "transformers",
        "vllm",
        "llama.cpp",
    )


def test_mlx_lm_does_not_run_a_vision_language_model(arch):
    # mlx-lm loads the language model only; images need mlx-vlm.
    assert not engines.get("mlx").runs_model(arch("Qwen2.5-VL-7B"))
    assert engines.get("mlx").runs_model(arch("Qwen2.5-7B"))
