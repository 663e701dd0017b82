"""Hardware in words -> HardwareSpec with the estimator's catalog, and back into words."""

import pytest

from bot.profile_text import ParsedHardware, describe, parse
from bot.render.errors import message
from estimator.errors import EstimatorError
from storage import HardwareSpec


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "RTX 4090, 64GB RAM",
            dict(gpu="GeForce RTX 4090", gpu_count=1, gpu_memory_gb=24, ram_gb=64),
        ),
        ("2x 3090", dict(gpu="GeForce RTX 3090", gpu_count=2, gpu_memory_gb=24)),
        ("3090 x2", dict(gpu="GeForce RTX 3090", gpu_count=2, gpu_memory_gb=24)),
        ("dual 4090", dict(gpu="GeForce RTX 4090", gpu_count=2, gpu_memory_gb=24)),
        (
            "2x RTX 3090 + 128 GB RAM",
            dict(gpu="GeForce RTX 3090", gpu_count=2, gpu_memory_gb=24, ram_gb=128),
        ),
        (
            "A100 80GB lab server",
            dict(gpu="A100 80GB SXM4", gpu_count=1, gpu_memory_gb=80, label="lab server"),
        ),
        ("M3 Max 64GB", dict(apple_chip="M3 Max", apple_memory_gb=64)),
        (
            "MacBook Pro M3 Max with 64GB unified memory",
            dict(apple_chip="M3 Max", apple_memory_gb=64, label="macbook pro"),
        ),
        (
            "laptop with 4060 laptop and 32GB RAM",
            dict(
                gpu="GeForce RTX 4060 Laptop",
                gpu_count=1,
                gpu_memory_gb=8,
                ram_gb=32,
                label="laptop",
            ),
        ),
        (
            "laptop met 4060 laptop en 32GB werkgeheugen",
            dict(
                gpu="GeForce RTX 4060 Laptop",
                gpu_count=1,
                gpu_memory_gb=8,
                ram_gb=32,
                label="laptop",
            ),
        ),
        ("cpu only, 16GB RAM", dict(ram_gb=16)),
        ("Ryzen 9 7950X, 64GB RAM", dict(cpu="Ryzen 9 7950X", ram_gb=64)),
        (
            "Threadripper 7980X with 2x RTX 4090 and 256GB DDR5",
            dict(
                gpu="GeForce RTX 4090",
                gpu_count=2,
                gpu_memory_gb=24,
                ram_gb=256,
                cpu="Threadripper 7980X",
            ),
        ),
        (
            "8x H100 SXM5, 2 TB RAM",
            dict(gpu="H100 SXM5 80GB", gpu_count=8, gpu_memory_gb=80, ram_gb=2048),
        ),
        ("3090 48GB", dict(gpu="GeForce RTX 3090", gpu_count=1, gpu_memory_gb=48)),
        (
            "RTX 4090 + 3090",
            dict(gpu="GeForce RTX 4090 + GeForce RTX 3090", gpu_count=2, gpu_memory_gb=24),
        ),
        (
            "2x 3090 + 3060, 128GB RAM",
            dict(
                gpu="2x GeForce RTX 3090 + GeForce RTX 3060 12GB",
                gpu_count=3,
                gpu_memory_gb=24,
                ram_gb=128,
            ),
        ),
        (
            "RAM: 64GB, RTX 4090",
            dict(gpu="GeForce RTX 4090", gpu_count=1, gpu_memory_gb=24, ram_gb=64),
        ),
    ],
)
def test_descriptions_people_type(text: str, expected: dict):
    assert parse(text) == ParsedHardware(**expected)


def test_the_result_is_storable_hardware():
    parsed = parse("A100 80GB lab server")
    assert isinstance(parsed, HardwareSpec)
    assert parsed.hardware() == HardwareSpec(gpu="A100 80GB SXM4", gpu_count=1, gpu_memory_gb=80)
    assert parsed.suggested_name() == "lab server"
    assert parse("RTX 4090, 64GB RAM").suggested_name() == "rtx 4090"
    assert parse("M3 Max 64GB").suggested_name() == "m3 max"
    assert parse("cpu only, 16GB RAM").suggested_name() == "cpu"


def test_an_unknown_gpu_says_did_you_mean():
    with pytest.raises(EstimatorError) as unknown:
        parse("rtx 9999, 64GB RAM")
    assert unknown.value.code == "unknown_gpu" and unknown.value.params["gpu"] == "rtx 9999"
    assert message(unknown.value, "en").startswith(
        "unknown GPU 'rtx 9999'; did you mean GeForce RTX"
    )


def test_a_near_miss_is_not_silently_rounded_to_another_card():
    with pytest.raises(EstimatorError) as unknown:
        parse("RTX 4090 Ti")
    assert unknown.value.code == "unknown_gpu"
    assert "GeForce RTX 4090" in unknown.value.params["suggestions"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "profile_empty"),
        (" , + ", "profile_empty"),
        ("my gaming pc", "profile_no_hardware"),
        ("'; DROP TABLE users; --", "profile_no_hardware"),
        ("H100, M3 Max", "profile_gpu_and_apple"),
        ("cpu only with 4090", "profile_cpu_only_with_gpu"),
        ("64GB RAM, 32GB RAM", "profile_two_values"),
        ("RTX 4090, 64GB, 32GB", "profile_two_values"),
        ("Ryzen 9 7950X, Xeon W-3495X", "profile_two_values"),
        ("M3 Max, 96GB RAM", "apple_memory_not_offered"),
        ("RTX 4090 x 5000", "out_of_range"),
        ("0GB RAM", "out_of_range"),
        ("RTX\x004090", "profile_text_control_chars"),
        ("x" * 10_000_000, "profile_text_too_long"),
    ],
)
def test_unreadable_descriptions_are_refused_with_a_reason(text: str, code: str):
    with pytest.raises(EstimatorError) as refused:
        parse(text)
    assert refused.value.code == code
    assert "\n" not in message(refused.value, "en")


def test_described_back_in_both_languages():
    spec = parse("2x RTX 3090 + 128 GB RAM")
    assert describe(spec, "en") == "2 × GeForce RTX 3090 (24 GB each), 128 GB RAM"
    assert describe(spec, "nl") == "2 × GeForce RTX 3090 (24 GB per stuk), 128 GB RAM"
    assert describe(parse("M3 Max 64GB"), "en") == "M3 Max with 64 GB unified memory"
    assert describe(parse("Ryzen 9 7950X, 64GB RAM"), "en") == "CPU Ryzen 9 7950X, 64 GB RAM"
    assert describe(parse("cpu only, 16GB RAM"), "nl") == "alleen CPU, 16 GB RAM"
    assert describe(HardwareSpec(gpu_count=1, gpu_memory_gb=12.5), "nl") == "1 × GPU met 12,5 GB"


def test_a_mixed_set_is_saved_described_and_answered_as_one_machine():
    from bot.conversation.answer import machine
    from bot.conversation.saved_hardware import profile_draft

    spec = parse("2x 3090 + 3060, 128GB RAM").hardware()
    assert describe(spec, "en") == (
        "2 × GeForce RTX 3090 (24 GB each) + GeForce RTX 3060 12GB (12 GB), 128 GB RAM"
    )
    assert describe(spec, "nl") == (
        "2 × GeForce RTX 3090 (24 GB per stuk) + GeForce RTX 3060 12GB (12 GB), 128 GB RAM"
    )
    box = machine(profile_draft(spec))
    assert (box.count, box.mixed, box.ram_bytes) == (3, True, 128 * 2**30)
    assert box.device_capacities == (24 * 2**30, 24 * 2**30, 12 * 2**30)


def test_a_saved_memory_that_differs_from_the_catalog_reaches_the_answer():
    from bot.conversation.answer import machine
    from bot.conversation.saved_hardware import profile_draft

    spec = parse("3090 48GB").hardware()
    assert machine(profile_draft(spec)).device_bytes == 48 * 2**30
    # a profile saved before mixed sets existed reads as before
    old = HardwareSpec(gpu="GeForce RTX 3090", gpu_count=2, gpu_memory_gb=24, ram_gb=64)
    assert old.cards == [(2, "GeForce RTX 3090")]
    assert machine(profile_draft(old)).count == 2


def test_a_cpu_saved_as_typed_counts_when_the_catalog_knows_its_platform():
    from bot.conversation.saved_hardware import profile_draft

    assert profile_draft(parse("Ryzen 9 7950X, 64GB RAM").hardware()).cpu == "Ryzen 9 7950X"
    assert profile_draft(parse("Celeron N5105, 16GB RAM").hardware()).cpu is None
