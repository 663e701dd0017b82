"""`bot.detect` on machines as their tools reported them (tests/fixtures/machines, each with its
source), the real NVML library on this machine (no NVIDIA driver here), and `llm-sizer detect`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.commands.detect import lines
from bot.detect import Detected, GpuReading, HostReading, apple, detect, host, nvidia, rocm
from bot.detect.profile import catalog_gpu, profile, words

MACHINES = Path(__file__).resolve().parents[1] / "fixtures" / "machines"
MIB = 1 << 20
GIB = 1 << 30


def recorded(name: str) -> str:
    return (MACHINES / name).read_text()


def nvml(name: str) -> list[GpuReading]:
    body = json.loads(recorded(name))
    return [nvidia.reading(d["name"], d["total"], d["free"]) for d in body["nvml"]]


def ci_host() -> HostReading:
    body = json.loads(recorded("linux-epyc-2core.json"))
    ps = body["psutil"]
    return HostReading(
        ram_total_bytes=ps["total"],
        ram_available_bytes=ps["available"],
        cpu=host.cpu_from_cpuinfo(body["cpuinfo"]),
        physical_cores=ps["physical_cores"],
        logical_cores=ps["logical_cores"],
    )


def machine(gpus: list[GpuReading]) -> Detected:
    return Detected(gpus=tuple(gpus), apple=None, host=ci_host())


def test_two_idle_rtx_4090s() -> None:
    found = machine(nvml("nvidia-2x-rtx4090.json"))
    spec = profile(found).spec
    assert (spec.gpu, spec.gpu_count, spec.gpu_memory_gb) == ("GeForce RTX 4090", 2, 24.0)
    # 25,276,510,208 B of RAM is 23.54 GiB.
    assert spec.ram_gb == 23.5 and spec.cpu == "AMD EPYC"
    text = lines(found, "en")
    # 24,564 MiB is 23.99 GiB; 24,564 - 507 = 24,057 MiB free is 23.49 GiB.
    assert "  GPU 0: NVIDIA GeForce RTX 4090, 24.0 GiB (23.5 GiB free)" in text
    assert "  GPU 1: NVIDIA GeForce RTX 4090, 24.0 GiB (23.5 GiB free)" in text
    assert not any("in use" in line for line in text)
    assert text[-1] == "As a profile: 2 × GeForce RTX 4090 (24 GB each), CPU AMD EPYC, 23.5 GB RAM"


def test_busy_h100s_are_named_as_the_sxm5_card_and_said_to_be_busy() -> None:
    found = machine(nvml("nvidia-2x-h100-busy.json"))
    spec = profile(found).spec
    assert (spec.gpu, spec.gpu_count, spec.gpu_memory_gb) == ("H100 SXM5 80GB", 2, 80.0)
    text = "\n".join(lines(found, "en"))
    # 81,559 MiB is 79.65 GiB; 81,559 - 72,790 = 8,769 MiB free is 8.56 GiB.
    assert "GPU 0: NVIDIA H100 80GB HBM3, 79.6 GiB (8.6 GiB free)" in text
    assert "GPU 0 is mostly in use (8.6 GiB of 79.6 GiB free); answers count the whole card" in text
    dutch = "\n".join(lines(found, "nl"))
    assert "GPU 1 is grotendeels in gebruik (8,6 GiB van 79,6 GiB vrij)" in dutch


def test_rtx_5090s_with_a_model_loaded() -> None:
    found = machine(nvml("nvidia-2x-rtx5090-busy.json"))
    spec = profile(found).spec
    assert (spec.gpu, spec.gpu_count, spec.gpu_memory_gb) == ("GeForce RTX 5090", 2, 32.0)
    text = "\n".join(lines(found, "en"))
    # 32,607 - 29,174 = 3,433 MiB free is 3.35 GiB.
    assert "GPU 1: NVIDIA GeForce RTX 5090, 31.8 GiB (3.4 GiB free)" in text


def test_an_amd_card_of_the_catalog() -> None:
    (card,) = rocm.parse(recorded("rocm-rx7900xt.csv"))
    assert card.name == "Radeon RX 7900 XT"
    assert card.total_bytes == 21_458_059_264
    assert card.free_bytes == 21_458_059_264 - 27_856_896
    spec = profile(machine([card])).spec
    # 21,458,059,264 B is 19.98 GiB: the catalog's 20 GB card.
    assert (spec.gpu, spec.gpu_count, spec.gpu_memory_gb) == ("Radeon RX 7900 XT", 1, 20.0)


def navi21() -> GpuReading:
    """A card rocm-smi names only by its chip ("Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]")."""
    return rocm.parse(recorded("rocm-rx6800-raphael.csv"))[0]


def test_a_card_the_catalog_cannot_name_counts_by_its_memory() -> None:
    assert catalog_gpu(navi21()) is None
    spec = profile(machine([navi21()])).spec
    # 17,163,091,968 B is 15.98 GiB.
    assert (spec.gpu, spec.gpu_count, spec.gpu_memory_gb) == (None, 1, 16.0)
    assert words(spec) == "a 16GB GPU, 23.5GB RAM"


def test_integrated_graphics_are_left_out() -> None:
    cards = rocm.parse(recorded("rocm-rx6800-raphael.csv"))
    assert [c.name for c in cards] == ["Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]", "Raphael"]
    assert cards[1].total_bytes == 64 * MIB
    found = profile(machine(cards))
    # 17,163,091,968 B is 15.98 GiB; the Raphael's 64 MiB carve-out is no GPU to run on.
    assert (found.spec.gpu_count, found.spec.gpu_memory_gb) == (1, 16.0)
    assert found.gpus == (cards[0],) and found.left_out == ()


def test_rocm_output_without_cards_reads_as_none() -> None:
    assert rocm.parse("") == []
    assert rocm.parse("WARNING: No AMD GPUs specified\n") == []


def apple_machine(name: str, cores: int) -> Detected:
    reading = apple.parse(recorded(name))
    assert reading is not None
    return Detected(
        gpus=(),
        apple=reading,
        host=HostReading(reading.memory_bytes, None, reading.chip, cores, cores),
    )


def test_an_m3_max_with_36_gb() -> None:
    found = apple_machine("sysctl-m3max-36gb.txt", 14)
    assert found.apple.memory_bytes == 36 * GIB and found.apple.wired_limit_bytes is None
    spec = profile(found).spec
    assert (spec.apple_chip, spec.apple_memory_gb) == ("M3 Max", 36)
    text = lines(found, "en")
    assert "  Apple M3 Max, 36.0 GiB unified memory" in text
    # macOS lets the GPU wire 2/3 of memory up to 36 GB.
    assert "  The GPU may use about 67% of it (macOS's default working set)" in text
    assert "  CPU: Apple M3 Max, 14 cores" in text
    assert not any(line.startswith("  RAM") for line in text)
    assert words(spec) == "M3 Max 36GB"


def test_an_m4_max_with_64_gb() -> None:
    found = apple_machine("sysctl-m4max-64gb.txt", 16)
    spec = profile(found).spec
    assert (spec.apple_chip, spec.apple_memory_gb) == ("M4 Max", 64)
    # ... and 3/4 above 36 GB.
    assert "  The GPU may use about 75% of it (macOS's default working set)" in lines(found, "en")


def test_a_raised_working_set_limit_is_reported() -> None:
    found = apple_machine("sysctl-m1max-32gb-wired.txt", 10)
    assert found.apple.wired_limit_bytes == 26_000 * MIB
    text = "\n".join(lines(found, "en"))
    # 26,000 MiB is 25.39 GiB; the answers still use the default 2/3 of 32 GB.
    assert "The GPU may use 25.4 GiB (set with sysctl iogpu.wired_limit_mb)" in text
    assert "macOS's default of 67% of the memory" in text


def test_sysctl_without_an_apple_chip_is_no_apple_machine() -> None:
    assert (
        apple.parse("hw.memsize: 17179869184\nmachdep.cpu.brand_string: Intel(R) Core(TM) i7\n")
        is None
    )


def test_a_mixed_set_names_every_card_largest_first() -> None:
    """A 4090 (24,564 MiB) beside an H100 (81,559 MiB): one machine of both, as a profile and
    as a question names it."""
    from bot.conversation.parse import parse

    (rtx4090, _) = nvml("nvidia-2x-rtx4090.json")
    h100s = nvml("nvidia-2x-h100-busy.json")
    found = profile(machine([rtx4090, *h100s]))
    spec = found.spec
    assert spec.gpu == "2x H100 SXM5 80GB + GeForce RTX 4090"
    assert (spec.gpu_count, spec.gpu_memory_gb) == (3, 80.0)
    assert found.left_out == ()
    said = parse(f"can I run 70B on {words(spec)}?")
    assert (said.gpu, said.gpus) == ("2x H100 SXM5 80GB + GeForce RTX 4090", 3)


def test_an_unnamed_card_beside_one_of_its_size_counts_both_by_memory() -> None:
    """Beside the Navi 21 (15.98 GiB), a second 16 GiB card of another make."""
    other = GpuReading("nvidia", "NVIDIA GeForce RTX 4060 Ti", 16 * GIB, None)
    found = profile(machine([navi21(), other]))
    assert (found.spec.gpu, found.spec.gpu_count, found.spec.gpu_memory_gb) == (None, 2, 16.0)


def test_an_unnamed_card_of_another_size_is_left_out() -> None:
    (h100, _) = nvml("nvidia-2x-h100-busy.json")
    found = profile(machine([navi21(), h100]))
    assert (found.spec.gpu, found.spec.gpu_count) == ("H100 SXM5 80GB", 1)
    assert found.left_out == (navi21(),)
    text = lines(machine([navi21(), h100]), "en")
    assert (
        "  Not in the profile (its kind and size are not in the catalog): "
        "Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]" in text
    )


def test_a_machine_without_gpus_is_a_cpu_profile() -> None:
    spec = profile(machine([])).spec
    assert (spec.gpu_count, spec.apple_chip, spec.ram_gb) == (0, None, 23.5)
    assert words(spec) == "CPU, 23.5GB RAM"


@pytest.mark.parametrize(
    ("readings", "expected"),
    [
        ("nvidia-2x-rtx4090.json", {"gpu": "GeForce RTX 4090", "gpus": 2, "ram_gb": 23.5}),
        ("nvidia-2x-h100-busy.json", {"gpu": "H100 SXM5 80GB", "gpus": 2, "ram_gb": 23.5}),
    ],
)
def test_the_words_read_back_as_the_same_hardware(readings: str, expected: dict) -> None:
    from bot.conversation.parse import parse

    said = parse(f"can I run 70B on {words(profile(machine(nvml(readings))).spec)}?")
    assert {key: getattr(said, key) for key in expected} == expected


def test_nvml_on_a_machine_without_an_nvidia_driver() -> None:
    """The real library: here it finds no driver, and says so instead of failing."""
    readings, reason = nvidia.read()
    if readings:
        pytest.skip("this machine has NVIDIA GPUs")
    assert reason


def test_detect_reads_this_machine() -> None:
    found = detect()
    assert found.host.ram_total_bytes > 0
    assert profile(found).spec.ram_gb or profile(found).spec.apple_chip


def test_detect_save_makes_the_default_profile(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    monkeypatch.setenv("LOGNAME", "alice")
    monkeypatch.delenv("LLM_SIZER_LANG", raising=False)
    assert main(["detect", "--save"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Saved profile 'this machine': ")
    assert "'this machine' is now your default profile." in out
    assert main(["profile", "show", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["name"] == "this machine" and shown["is_default"] is True
    assert shown["hardware"] == profile(detect()).spec.model_dump(mode="json")
