"""The hardware catalogs: breadth, a source for every entry, memory and bandwidth, names that
read back unambiguously, and figures checked against values derived here by hand."""

import json
from importlib import resources

import pytest

from estimator.estimate import estimate
from estimator.hardware.catalog import (
    apple_chips,
    cloud_instances,
    find_cpu,
    find_gpu,
    gpus,
    machine,
)
from estimator.hardware.names import gpu_phrases, names_of
from estimator.hardware.reader import read_hardware
from estimator.memory import constants as k
from estimator.workload import Workload


def test_at_least_120_gpus_each_with_a_source_memory_and_bandwidth():
    catalog = gpus()
    assert len(catalog) >= 120
    for gpu in catalog:
        assert gpu.source.strip(), gpu.name
        assert gpu.memory_gib > 0 and gpu.bandwidth_gbs and gpu.bandwidth_gbs > 0, gpu.name
        assert gpu.segment in ("consumer", "workstation", "datacenter", "edge"), gpu.name
        if gpu.visible_memory_gib is not None:
            assert 0 < gpu.visible_memory_gib < gpu.memory_gib, gpu.name


def test_no_entry_cites_the_project_notes():
    for name in ("gpus.json", "cpus.json", "apple.json", "cloud.json"):
        text = resources.files("estimator").joinpath(f"data/{name}").read_text()
        assert "shared/" not in text, name


@pytest.mark.parametrize(
    "name",
    [
        # every family the catalog must cover, by the names people use
        "RTX 2060",
        "RTX 2080 Ti",
        "RTX 3060 Ti",
        "RTX 4070 SUPER",
        "RTX 5060 Ti 16GB",
        "RTX 5070 Ti",
        "RX 6800 XT",
        "RX 7900 XT",
        "RX 7900 GRE",
        "RX 9070 XT",
        "RX 9060 XT 16GB",
        "Arc A770",
        "Arc B580",
        "Arc B570",
        "RTX A6000",
        "RTX 6000 Ada",
        "RTX PRO 6000",
        "W7900",
        "H20",
        "H100 SXM",
        "H100 PCIe",
        "H100 NVL",
        "H200",
        "B200",
        "B300",
        "GB200",
        "MI250",
        "MI300X",
        "MI325X",
        "MI355X",
        "Gaudi 3",
        "Jetson AGX Orin 64GB",
        "Orin Nano",
        "DGX Spark",
        "Strix Halo",
        "Tesla P40",
    ],
)
def test_the_devices_people_ask_about_are_there(name):
    assert find_gpu(name) is not None, name


def test_every_catalog_name_reads_back_as_that_gpu_and_nothing_else():
    for gpu in gpus():
        mention, _ = read_hardware(gpu.name)
        (card,) = mention.cards
        assert (card.gpu, card.count, card.others) == (gpu, None, ()), gpu.name
        assert len(mention.options) == 1 and not mention.unknown, gpu.name


def test_names_that_fit_several_gpus_can_each_be_picked_by_its_variant_words():
    """A short name may fit several GPUs (the A100 comes in four); each of them must differ
    from the others in what the words around the name can say: laptop, form factor, memory."""
    for group in gpu_phrases().values():
        for named in group:
            seen = {}
            for gpu in named.gpus:
                key = (gpu.laptop, gpu.form_factor, gpu.memory_gib)
                assert key not in seen, (named.phrase.words, gpu.name, seen.get(key))
                seen[key] = gpu.name


def test_every_gpu_has_a_short_name_without_its_brand():
    assert "4090" in names_of(find_gpu("GeForce RTX 4090"))
    assert "7900 xtx" in names_of(find_gpu("Radeon RX 7900 XTX"))
    assert "b580" in names_of(find_gpu("Arc B580"))
    assert "gb10" in names_of(find_gpu("DGX Spark (GB10)"))


def test_ecc_cards_show_the_memory_their_driver_reports():
    """nvidia-smi with ECC on: 15360 MiB on a T4, 23028 MiB on an A10G, 23034 MiB on an L4."""
    assert find_gpu("T4").memory_bytes == 15360 * 2**20
    assert abs(find_gpu("A10G").memory_bytes - 23028 * 2**20) < 2**20
    assert abs(find_gpu("L4").memory_bytes - 23034 * 2**20) < 2**20
    assert abs(find_gpu("H100").memory_bytes - 81559 * 2**20) < 2**20
    for name in ("T4", "A10G", "L4", "L40S", "H100", "H200", "B200"):
        assert "nvidia-smi" in find_gpu(name).source, name


def test_unified_memory_pcs_are_not_128_gb_cuda_gpus():
    spark, strix = find_gpu("DGX Spark"), find_gpu("Strix Halo 128GB")
    assert spark.unified and strix.unified
    assert spark.memory_gib == 128 and spark.memory_bytes == round(121.69 * 2**30)
    assert strix.memory_gib == 128 and strix.memory_bytes == 96 * 2**30
    assert find_gpu("Jetson AGX Orin 64GB").unified and not find_gpu("RTX 4090").unified
    assert not spark.discrete and not find_gpu("Orin Nano").discrete and find_gpu("4090").discrete


def test_an_orin_nano_leaves_its_programs_what_a_booted_board_has_free(arch):
    """free -h on a headless Orin Nano 8GB: 6.6 GiB available of the 8 GB module; less the
    CUDA context (426 MiB) that leaves 6.6 - 0.416 = 6.18 GiB for a model (was 8 - 0.416 =
    7.58)."""
    for name in ("Orin Nano", "Orin Nano Super"):
        nano = find_gpu(name)
        assert nano.memory_gib == 8 and nano.memory_bytes == round(6.6 * 2**30)
        assert "jetson-containers issue #342" in nano.source
    hw = machine(gpu="Orin Nano")
    w = Workload(model=arch("Llama-3.2-1B"), task="inference")
    usable = estimate(w, hw).devices[0].usable_bytes
    assert usable == round(6.6 * 2**30) - k.CUDA_CONTEXT_BYTES
    assert [n.key for n in hw.notes] == ["unified_share"]


def test_sxm_pcie_and_nvl_boards_keep_their_own_bandwidth():
    assert find_gpu("H100 SXM").bandwidth_gbs == 3350
    assert find_gpu("H100 PCIe").bandwidth_gbs == 2000
    assert find_gpu("H100 NVL").bandwidth_gbs == 3900
    assert find_gpu("A100 80GB PCIe").bandwidth_gbs < find_gpu("A100 80GB SXM4").bandwidth_gbs


def test_derived_tensor_rates_follow_sm_count_times_clock():
    """RTX 2080 Ti: 68 SM x 1.545 GHz x 1024 FLOP/clk = 107.6 TFLOPS FP16 (FP16 accumulate),
    half of it with FP32 accumulate on GeForce; RX 9070 XT: 64 CU x 2.97 GHz x 1024 = 194.6."""
    ti = find_gpu("RTX 2080 Ti")
    assert ti.tflops_fp16acc == pytest.approx(68 * 1.545 * 1024 / 1000, abs=0.1)
    assert ti.tflops_bf16 == pytest.approx(ti.tflops_fp16acc / 2, abs=0.1) and not ti.bf16
    xt = find_gpu("RX 9070 XT")
    assert xt.tflops_fp16acc == pytest.approx(64 * 2.97 * 1024 / 1000, abs=0.1) and xt.fp8


def test_cloud_instances_point_at_catalog_gpus():
    names = {g.name for g in gpus()}
    for instance in cloud_instances():
        assert instance.gpu in names, instance.instance


def test_cpu_platforms_have_sources_and_the_bandwidth_of_their_channels():
    """Bandwidth = MT/s x 8 bytes x 64-bit channels: EPYC Genoa 4800 x 8 x 12 = 460.8 GB/s."""
    data = json.loads(resources.files("estimator").joinpath("data/cpus.json").read_text())
    for entry in data["platforms"]:
        assert entry["source"].strip() and entry["bandwidth_gbs"] > 0, entry["name"]
        per_channel = entry["memory_type"].startswith("DDR") and "x 64-bit" in entry["channels"]
        if per_channel and entry["transfer_mts"]:
            expected = entry["transfer_mts"] * 8 * entry["channel_count"] / 1000
            assert entry["bandwidth_gbs"] == pytest.approx(expected, rel=0.001), entry["name"]
    assert find_cpu("epyc genoa").bandwidth_gbs == 4800 * 8 * 12 / 1000
    assert find_cpu("dual epyc genoa").bandwidth_gbs == 2 * 460.8
    assert find_cpu("raspberry pi 5").bandwidth_gbs == pytest.approx(4267 * 4 / 1000, abs=0.05)


@pytest.mark.parametrize(
    ("text", "platform"),
    [
        ("EPYC Genoa", "AMD EPYC 9004 Genoa 12-channel DDR5-4800 (1 socket)"),
        ("epyc 9654", "AMD EPYC 9004 Genoa 12-channel DDR5-4800 (1 socket)"),
        ("dual Xeon", "Intel Xeon Sapphire Rapids 2-socket"),
        ("Threadripper PRO 7995WX", "Threadripper PRO 7000WX 8-channel DDR5-5200 (workstation)"),
        ("threadripper 7980x", "Threadripper 7000 4-channel DDR5-5200 (TRX50)"),
        ("Ryzen 9 7950X", "DDR5-4800 dual channel (desktop)"),
        ("ryzen 7 5800x3d", "DDR4-3200 dual channel (desktop)"),
        ("Core Ultra 9 285K", "DDR5-5600 dual channel (desktop)"),
        ("ddr5-6000", "DDR5-6000 dual channel (desktop)"),
        ("strix halo", "LPDDR5X-8000 256-bit (unified APU)"),
        ("Raspberry Pi 4", "Raspberry Pi 4"),
        ("iPhone 15 Pro", "iPhone 15 Pro (A17 Pro)"),
    ],
)
def test_cpu_platforms_by_name(text, platform):
    assert find_cpu(text).name == platform


def test_a_channel_count_names_a_memory_system():
    """8-channel DDR5 at the JEDEC 4800 MT/s: 4800 x 8 bytes x 8 = 307.2 GB/s."""
    cpu = find_cpu("8-channel DDR5")
    assert cpu.bandwidth_gbs == 307.2 and cpu.channels == 8
    assert find_cpu("12-channel ddr5-6400").bandwidth_gbs == 6400 * 8 * 12 / 1000


def test_apple_chips_m1_to_m5():
    chips = {c.chip for c in apple_chips()}
    for family in ("M1", "M2", "M3", "M4", "M5"):
        assert {family, f"{family} Pro", f"{family} Max"} <= chips
    assert machine(gpu="M4 Max 128GB").apple.bandwidth_gbs == 546


@pytest.mark.parametrize(
    ("name", "linked"),
    [
        ("Instinct MI300X", True),  # Infinity Fabric, 7 links x 128 GB/s between OAM GPUs
        ("H100 SXM5 80GB", True),  # NVLink 4
        ("GeForce RTX 4090", False),  # no NVLink connector: PCIe only
        ("Instinct MI210", False),  # a bridge of 3 links, bandwidth not recorded
    ],
)
def test_a_gpu_to_gpu_fabric_is_a_link_as_nvlink_is(name, linked):
    gpu = find_gpu(name)
    assert gpu is not None and gpu.nvlink is linked
