"""The machine a command line or a question describes: one GPU, a mixed set, an Apple chip, a
CPU platform or device; values out of range are refused with the range, never replaced."""

import pytest

from estimator.errors import EstimatorError
from estimator.hardware.catalog import find_gpu, machine
from estimator.hardware.reader import read_hardware
from estimator.result import Note

GIB = 2**30


def test_a_mixed_set_lists_every_card_largest_first():
    m = machine(gpu="RTX 3060 + 2x RTX 3090")
    assert (m.kind, m.count, m.mixed) == ("gpu", 3, True)
    assert [c.name for c in m.cards] == ["GeForce RTX 3090"] * 2 + ["GeForce RTX 3060 12GB"]
    assert m.device_capacities == (24 * GIB, 24 * GIB, 12 * GIB)
    assert (m.gpu.name, m.device_bytes) == ("GeForce RTX 3090", 24 * GIB)
    assert m.name == "2x GeForce RTX 3090 + GeForce RTX 3060 12GB"


def test_the_same_card_twice_is_one_kind_counted_twice():
    m = machine(gpu="4090 + 4090")
    assert (m.gpu.name, m.count, m.cards, m.mixed) == ("GeForce RTX 4090", 2, (), False)
    assert m.device_capacities == (24 * GIB, 24 * GIB)
    # One card by two of its names in a row is one card.
    strix = machine(gpu="strix halo ryzen ai max 128gb")
    assert (strix.gpu.name, strix.count) == ("Ryzen AI Max+ 395 (Strix Halo) 128GB", 1)


def test_a_count_in_the_words_and_the_gpus_flag_must_agree():
    assert machine(gpu="2x 3090").count == 2
    assert machine(gpu="2x 3090", gpus=2).count == 2
    assert machine(gpu="3090", gpus=4).count == 4
    with pytest.raises(EstimatorError) as conflict:
        machine(gpu="2x 3090", gpus=4)
    assert conflict.value.code == "gpus_conflict"


@pytest.mark.parametrize(
    ("kwargs", "field", "value"),
    [
        (dict(gpu="99999x H100"), "gpus", 99999),
        (dict(gpu="H100", gpus=5000), "gpus", 5000),
        (dict(gpu="RTX 4090 x 5000"), "gpus", 5000),
        (dict(gpu="3090 + 5000x 3060"), "gpus", 5000),
        (dict(gpu="-24GB"), "gpu_memory", "-24"),
        (dict(gpu_memory_gb=-24), "gpu_memory", "-24"),
        (dict(ram_gb=0), "ram", "0"),
        (dict(gpu="4090", ram_gb=2e9), "ram", "2e+09"),
    ],
)
def test_out_of_range_values_are_refused_with_the_range(kwargs, field, value):
    with pytest.raises(EstimatorError) as refused:
        machine(**kwargs)
    assert refused.value.code == "out_of_range"
    assert refused.value.params["field"] == field and refused.value.params["value"] == value
    assert refused.value.params["low"] in (0.1, 1)


def test_hundreds_of_digits_are_refused_not_overflowed():
    huge = "9" * 400
    for text in (f"M3 Max {huge}GB", f"rtx 4090 {huge}gb", f"{huge}x 3090", f"{huge}GB"):
        with pytest.raises(EstimatorError):
            machine(gpu=text)


def test_a_bare_h100_is_the_sxm_board_and_the_machine_says_so():
    m = machine(gpu="H100")
    assert m.gpu.name == "H100 SXM5 80GB"
    (variant,) = [n for n in m.notes if n.key == "gpu_variant"]
    assert variant.params["said"] == "h100"
    assert variant.params["others"] == ["H100 PCIe 80GB", "H100 NVL 94GB"]
    assert machine(gpu="H100 SXM5 80GB").notes == machine(gpu="H100 SXM5 80GB").notes
    assert not [n for n in machine(gpu="H100 SXM5 80GB").notes if n.key == "gpu_variant"]
    assert machine(gpu="a100").gpu.name == "A100 80GB SXM4"
    assert machine(gpu="a100 40gb").gpu.name == "A100 40GB SXM4"
    assert machine(gpu="a100 pcie").gpu.name == "A100 80GB PCIe"


def test_a_memory_no_variant_has_is_kept_as_said():
    m = machine(gpu="3090 48GB")
    assert (m.gpu.name, m.device_bytes) == ("GeForce RTX 3090", 48 * GIB)
    assert [n.key for n in m.notes] == ["gpu_memory_said"]
    mixed = machine(gpu="3090 48GB + 3090")
    assert mixed.device_capacities == (48 * GIB, 24 * GIB)


def test_ecc_and_unified_memory_are_stated():
    assert [n.key for n in machine(gpu="T4").notes] == ["visible_memory"]
    assert machine(gpu="T4").device_bytes == 15 * GIB
    spark = machine(gpu="DGX Spark")
    assert [n.key for n in spark.notes] == ["unified_share"] and spark.gpu.unified
    assert [n.key for n in machine(gpu="Jetson AGX Orin 64GB").notes] == ["unified_memory"]


def test_apple_chips_with_their_memory_or_the_smallest():
    m = machine(gpu="M1 macbook air 16gb")
    assert (m.kind, m.name, m.device_bytes) == ("apple", "M1 16GB", 16 * GIB)
    smallest = machine(gpu="M3 Pro")
    assert (smallest.name, [n.key for n in smallest.notes]) == (
        "M3 Pro 18GB",
        ["apple_memory_assumed"],
    )
    with pytest.raises(EstimatorError) as refused:
        machine(gpu="M2 Max 40GB")
    assert refused.value.code == "apple_memory_not_offered"


@pytest.mark.parametrize(
    ("said", "name", "notes"),
    [
        # apple.json: the M3 comes with 8/16/24 GB, the M3 Pro with 18/36, the M3 Max with
        # 36-128; the M4 with 16/24/32.
        (
            "macbook pro m3 18gb",
            "M3 Pro 18GB",
            [Note("apple_sibling_chip", {"said": "M3", "chip": "M3 Pro", "memory_gb": 18})],
        ),
        (
            "M3 48GB",
            "M3 Max 48GB",
            [Note("apple_sibling_chip", {"said": "M3", "chip": "M3 Max", "memory_gb": 48})],
        ),
        ("M4 24GB", "M4 24GB", []),
    ],
)
def test_a_memory_only_the_pro_or_max_comes_with_names_that_chip(said, name, notes):
    m = machine(gpu=said)
    assert (m.name, list(m.notes)) == (name, notes)


def test_a_memory_no_chip_of_the_generation_has_is_refused_with_the_chips_options():
    with pytest.raises(EstimatorError) as refused:
        machine(gpu="M3 20GB")
    assert refused.value.code == "apple_memory_not_offered"
    assert refused.value.params["options"] == [8, 16, 24]


def test_a_cpu_device_comes_with_one_of_its_ram_sizes():
    pi = machine(gpu="Raspberry Pi 4 met 4GB")
    assert (pi.kind, pi.name, pi.device_bytes) == ("cpu", "Raspberry Pi 4 4GB", 4 * GIB)
    assert pi.cpu.name == "Raspberry Pi 4" and pi.cpu.bandwidth_gbs == 12.8
    bare = machine(gpu="Raspberry Pi 5")
    assert (bare.device_bytes, [n.key for n in bare.notes]) == (GIB, ["device_ram_assumed"])
    assert machine(gpu="cpu", cpu="raspberry pi 5", ram_gb=8).name == "Raspberry Pi 5 8GB"
    with pytest.raises(EstimatorError) as refused:
        machine(gpu="Raspberry Pi 4 3GB")
    assert refused.value.code == "device_ram_not_offered"


def test_a_cpu_platform_with_ram_is_a_cpu_machine():
    m = machine(gpu="EPYC Genoa 384GB")
    assert (m.kind, m.ram_bytes, m.cpu.name) == (
        "cpu",
        384 * GIB,
        "AMD EPYC 9004 Genoa 12-channel DDR5-4800 (1 socket)",
    )
    with pytest.raises(EstimatorError) as no_ram:
        machine(gpu="dual xeon")
    assert no_ram.value.code == "cpu_needs_ram"
    gpu_box = machine(gpu="4090", cpu="threadripper pro", ram_gb=256)
    assert gpu_box.cpu.channels == 8 and gpu_box.ram_bytes == 256 * GIB


def test_an_unknown_gpu_says_did_you_mean():
    for text, near in (("rtx 4095", "GeForce RTX 4090"), ("RTX 4090 Ti", "GeForce RTX 4090")):
        with pytest.raises(EstimatorError) as unknown:
            machine(gpu=text)
        assert unknown.value.code == "unknown_gpu" and near in unknown.value.params["suggestions"]
    with pytest.raises(EstimatorError) as part:
        machine(gpu="4090 + rtx 4095")
    assert part.value.code == "unknown_gpu"


def test_laptop_gpus_when_the_words_say_laptop():
    assert machine(gpu="4090 laptop").gpu == find_gpu("GeForce RTX 4090 Laptop")
    assert machine(gpu="rtx 4070 max-q").gpu.laptop
    assert not machine(gpu="rtx 4070").gpu.laptop


@pytest.mark.parametrize(
    ("said", "name", "bandwidth"),
    [
        # apple.json's chips, each Mac's chips from Apple's tech specs: the slowest of them
        # that comes with the memory said.
        ("macbook air 16gb", "M1 16GB", 68.25),
        ("MacBook Air 24GB", "M2 24GB", 100.0),  # the M1 has no 24 GB
        ("mac mini 48gb", "M4 Pro 48GB", 273.0),  # only the M4 Pro mini has 48 GB
        ("macbook pro met 36gb", "M3 Pro 36GB", 150.0),
        ("mac studio 128gb", "M4 Max 128GB", 546.0),  # M1/M2 Ultra read 800, no M3 Max studio
    ],
)
def test_a_mac_said_without_its_chip_is_its_slowest_chip_with_that_memory(said, name, bandwidth):
    m = machine(gpu=said)
    assert (m.kind, m.name, m.apple.bandwidth_gbs) == ("apple", name, bandwidth)
    (note,) = m.notes
    assert note.key == "apple_chip_assumed" and note.params["bandwidth_gbs"] == bandwidth
    # It reads back the same from a saved profile.
    mention, _ = read_hardware(said)
    assert machine(gpu=mention.apple.spec).name == name
    # A chip said is the chip, with no assumption.
    assert machine(gpu="M2 macbook air 24gb").notes == ()
