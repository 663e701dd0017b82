"""Hardware as users type it, English and Dutch (lowercase, "24 gig", "80G", "2x3090", no
punctuation), read by the question parser and built into the machine the answer runs on.

Each row: the message, and what the machine must be: its name (as the catalog and the answer
write it), the number of GPUs, RAM in GB, the CPU platform, whether the answer states an
assumed variant; or the error the answer refuses it with; or None for no hardware at all.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.conversation.answer import machine
from bot.conversation.parse import parse
from estimator.errors import EstimatorError

EPYC_GENOA = "AMD EPYC 9004 Genoa 12-channel DDR5-4800 (1 socket)"
AM5 = "DDR5-4800 dual channel (desktop)"

PHRASINGS: list[tuple[str, dict[str, Any] | None]] = [
    # the examples the issue found misread
    ("gpt-oss-20b on 16gb 4060 ti", {"name": "GeForce RTX 4060 Ti 16GB"}),
    ("run llama 3.1 8b on 80G A100", {"name": "A100 80GB SXM4", "assumed": True}),
    ("M1 macbook air 16gb", {"name": "M1 16GB"}),
    ("train xgboost on a 10GB csv with 1M rows", None),
    ("Raspberry Pi 4 met 4GB", {"name": "Raspberry Pi 4 4GB", "ram": 4}),
    ("run 7B on six 4090s", {"name": "GeForce RTX 4090", "count": 6}),
    # "A second 3090" is one more beside the one they have: two in all.
    ("what if i add a second 3090", {"name": "GeForce RTX 3090", "count": 2}),
    ("wat als ik een tweede 3090 koop", {"name": "GeForce RTX 3090", "count": 2}),
    ("met een derde 4090", {"name": "GeForce RTX 4090", "count": 3}),
    ("tokens per second on a 3090", {"name": "GeForce RTX 3090"}),
    ("my second 3090", {"name": "GeForce RTX 3090"}),
    ("does qwen 7b run on an Arc B580", {"name": "Arc B580"}),
    (
        "full finetune llama 3.1 8b on 8x a100 80gb met zero-3",
        {"name": "A100 80GB SXM4", "count": 8},
    ),
    ("run 7B on 99999x H100", {"error": "out_of_range"}),
    ("run 7B on -24GB", {"error": "out_of_range"}),
    (
        "is a 4090 plus a 3090 enough for 70b",
        {"name": "GeForce RTX 4090 + GeForce RTX 3090", "count": 2},
    ),
    ("70b on 2x 3090 + 3060", {"name": "2x GeForce RTX 3090 + GeForce RTX 3060 12GB", "count": 3}),
    (
        "llama 70b op een 4090 en een 3090",
        {"name": "GeForce RTX 4090 + GeForce RTX 3090", "count": 2},
    ),
    ("serve llama 8b on an h100", {"name": "H100 SXM5 80GB", "assumed": True}),
    ("serve llama 8b on an h100 pcie", {"name": "H100 PCIe 80GB", "assumed": False}),
    ("run mistral on an a100 40gb", {"name": "A100 40GB SXM4"}),
    # counts in digits and words
    ("run 7B on 2 3090s", {"name": "GeForce RTX 3090", "count": 2}),
    ("2x3090", {"name": "GeForce RTX 3090", "count": 2}),
    ("2 x 3090", {"name": "GeForce RTX 3090", "count": 2}),
    ("2×3090", {"name": "GeForce RTX 3090", "count": 2}),
    ("3090 x2", {"name": "GeForce RTX 3090", "count": 2}),
    ("3090 (x2)", {"name": "GeForce RTX 3090", "count": 2}),
    ("a pair of 3090s", {"name": "GeForce RTX 3090", "count": 2}),
    ("quad 3090 rig", {"name": "GeForce RTX 3090", "count": 4}),
    ("dual 4090 workstation", {"name": "GeForce RTX 4090", "count": 2}),
    ("6x 4090", {"name": "GeForce RTX 4090", "count": 6}),
    ("8x h100 sxm", {"name": "H100 SXM5 80GB", "count": 8}),
    ("4x l40s", {"name": "L40S", "count": 4}),
    ("p40 x4", {"name": "Tesla P40", "count": 4}),
    ("two 3090s and a 3060", {"name": "2x GeForce RTX 3090 + GeForce RTX 3060 12GB", "count": 3}),
    ("2 gpus with 24gb each", {"name": "24 GB GPU", "count": 2}),
    ("draai 7b op twee 3090's", {"name": "GeForce RTX 3090", "count": 2}),
    ("twee 3090s en een 3060", {"name": "2x GeForce RTX 3090 + GeForce RTX 3060 12GB", "count": 3}),
    ("zes 4090s", {"name": "GeForce RTX 4090", "count": 6}),
    ("vier a100s", {"name": "A100 80GB SXM4", "count": 4}),
    ("acht h100s in een server", {"name": "H100 SXM5 80GB", "count": 8}),
    ("drie rtx 3090 kaarten", {"name": "GeForce RTX 3090", "count": 3}),
    ("ik heb 2 gpus van 24 gig", {"name": "24 GB GPU", "count": 2}),
    # memory before or after the name, units as typed
    ("16gb 4060ti", {"name": "GeForce RTX 4060 Ti 16GB"}),
    ("4060 ti 16 gb", {"name": "GeForce RTX 4060 Ti 16GB"}),
    ("4060 ti 8gb", {"name": "GeForce RTX 4060 Ti 8GB"}),
    ("rtx 4060 ti", {"name": "GeForce RTX 4060 Ti 8GB", "assumed": True}),
    ("3080 12gb", {"name": "GeForce RTX 3080 12GB"}),
    ("a 3080", {"name": "GeForce RTX 3080 10GB", "assumed": True}),
    ("a100 80 gig", {"name": "A100 80GB SXM4"}),
    ("tesla v100 32gb", {"name": "Tesla V100 32GB (SXM2)"}),
    ("3090 48gb modded", {"name": "GeForce RTX 3090", "device_gb": 48}),
    ("my 3060 with 12gb", {"name": "GeForce RTX 3060 12GB"}),
    ("een 3060 met 12gb", {"name": "GeForce RTX 3060 12GB"}),
    ("llama 8b op een rtx 3060 12gb", {"name": "GeForce RTX 3060 12GB"}),
    ("7b op 24 gig", {"name": "24 GB GPU"}),
    ("run 13b on 24 gig vram", {"name": "24 GB GPU"}),
    ("on a 12gb card", {"name": "12 GB GPU"}),
    ("op een kaart van 16gb", {"name": "16 GB GPU"}),
    # RAM next to the GPU
    ("4090 with 64gb ram", {"name": "GeForce RTX 4090", "ram": 64}),
    ("2x rtx 4090 + 128gb ram", {"name": "GeForce RTX 4090", "count": 2, "ram": 128}),
    ("ik heb een 4090 met 64gb werkgeheugen", {"name": "GeForce RTX 4090", "ram": 64}),
    ("32gb ram en een 3060", {"name": "GeForce RTX 3060 12GB", "ram": 32}),
    ("3090 and 128 gigs of system ram", {"name": "GeForce RTX 3090", "ram": 128}),
    ("3090 met 64 gb ddr4", {"name": "GeForce RTX 3090", "ram": 64}),
    # names as typed
    ("rtx4090", {"name": "GeForce RTX 4090"}),
    ("nvidia geforce rtx 3090 ti", {"name": "GeForce RTX 3090 Ti"}),
    ("rtx 5090", {"name": "GeForce RTX 5090"}),
    ("5060 ti 16gb", {"name": "GeForce RTX 5060 Ti 16GB"}),
    ("rtx 2080 ti", {"name": "GeForce RTX 2080 Ti"}),
    ("gtx 1080 ti", {"name": "GeForce GTX 1080 Ti"}),
    ("rx 7900 xtx", {"name": "Radeon RX 7900 XTX"}),
    ("7900xtx", {"name": "Radeon RX 7900 XTX"}),
    ("rx 7900 gre", {"name": "Radeon RX 7900 GRE"}),
    ("rx 9070 xt", {"name": "Radeon RX 9070 XT"}),
    ("rx 6800 xt", {"name": "Radeon RX 6800 XT"}),
    ("intel arc a770", {"name": "Arc A770 16GB"}),
    ("b580 12gb", {"name": "Arc B580"}),
    ("rtx a6000", {"name": "RTX A6000"}),
    ("rtx 6000 ada", {"name": "RTX 6000 Ada Generation"}),
    ("rtx pro 6000", {"name": "RTX PRO 6000 Blackwell (Workstation Edition)"}),
    ("w7900", {"name": "Radeon PRO W7900"}),
    ("nvidia a10g", {"name": "A10G (AWS)"}),
    ("t4 op colab", {"name": "Tesla T4"}),
    ("l4", {"name": "L4"}),
    ("h20", {"name": "H20"}),
    ("h200", {"name": "H200 SXM 141GB", "assumed": True}),
    ("b200", {"name": "B200 (HGX)"}),
    ("b300", {"name": "B300 (HGX)"}),
    ("gb200", {"name": "GB200 (per Blackwell GPU)"}),
    ("gh200", {"name": "GH200 Grace Hopper (96GB HBM3)", "assumed": True}),
    ("mi300x", {"name": "Instinct MI300X"}),
    ("mi355x", {"name": "Instinct MI355X"}),
    ("gaudi 3", {"name": "Gaudi 3"}),
    ("jetson orin nano", {"name": "Jetson Orin Nano 8GB", "assumed": False}),
    ("orin nano super", {"name": "Jetson Orin Nano Super 8GB"}),
    ("agx orin 64gb", {"name": "Jetson AGX Orin 64GB"}),
    ("dgx spark", {"name": "DGX Spark (GB10)", "device_gb": 121.69}),
    ("strix halo 128gb", {"name": "Ryzen AI Max+ 395 (Strix Halo) 128GB", "device_gb": 96}),
    ("ryzen ai max+ 395", {"name": "Ryzen AI Max+ 395 (Strix Halo) 128GB", "assumed": True}),
    ("past llama 70b op twee a100's van 80gb", {"name": "A100 80GB SXM4", "count": 2}),
    ("ik heb een 3090 en wil 13b draaien", {"name": "GeForce RTX 3090"}),
    ("hoeveel tokens per seconde op een 4090", {"name": "GeForce RTX 4090"}),
    ("werkt mistral op mijn 3060 ti", {"name": "GeForce RTX 3060 Ti"}),
    ("kan ik dit trainen op een l40s", {"name": "L40S"}),
    (
        "op een server met 4x h100 en 1tb werkgeheugen",
        {"name": "H100 SXM5 80GB", "count": 4, "ram": 1024},
    ),
    ("een 7900 xtx met 32 gig ram", {"name": "Radeon RX 7900 XTX", "ram": 32}),
    ("draait dat op een t4 van google colab", {"name": "Tesla T4"}),
    (
        "mijn pc heeft een 4070 super en 32gb geheugen",
        {"name": "GeForce RTX 4070 SUPER", "ram": 32},
    ),
    # laptops
    ("my laptop has an rtx 4070", {"name": "GeForce RTX 4070 Laptop"}),
    ("mijn laptop heeft een 4060", {"name": "GeForce RTX 4060 Laptop"}),
    ("my 4090 laptop", {"name": "GeForce RTX 4090 Laptop"}),
    ("rtx 4080 mobile", {"name": "GeForce RTX 4080 Laptop"}),
    # Apple
    ("op een mac mini m4 pro 48gb", {"name": "M4 Pro 48GB"}),
    ("macbook pro m3 max met 64 gb", {"name": "M3 Max 64GB"}),
    ("apple m2 ultra 192gb", {"name": "M2 Ultra 192GB"}),
    ("m4 max 128gb", {"name": "M4 Max 128GB"}),
    ("m1 8gb", {"name": "M1 8GB"}),
    ("64gb m3 max", {"name": "M3 Max 64GB"}),
    ("m2 with 24 gb of ram", {"name": "M2 24GB"}),
    ("mac studio m2 ultra", {"name": "M2 Ultra 64GB"}),
    ("m2 max 40gb", {"error": "apple_memory_not_offered"}),
    # CPUs: platforms, devices, CPU only
    ("cpu only with 32gb ram", {"name": "CPU", "ram": 32}),
    ("alleen cpu en 16 gb ram", {"name": "CPU", "ram": 16}),
    ("epyc genoa met 768gb ram", {"name": "CPU", "ram": 768, "cpu": EPYC_GENOA}),
    ("EPYC Genoa 512GB", {"name": "CPU", "ram": 512, "cpu": EPYC_GENOA}),
    ("dual xeon 512gb", {"name": "CPU", "ram": 512, "cpu": "Intel Xeon Sapphire Rapids 2-socket"}),
    ("8-channel ddr5 met 256gb", {"name": "CPU", "ram": 256, "cpu": "DDR5-4800 8-channel"}),
    (
        "dual epyc milan 1tb ram",
        {
            "name": "CPU",
            "ram": 1024,
            "cpu": "2x AMD EPYC 7003 Milan 8-channel DDR4-3200 (1 socket)",
        },
    ),
    ("ddr5-6000 96gb", {"name": "CPU", "ram": 96, "cpu": "DDR5-6000 dual channel (desktop)"}),
    (
        "threadripper pro 7995wx met 512gb",
        {
            "name": "CPU",
            "ram": 512,
            "cpu": "Threadripper PRO 7000WX 8-channel DDR5-5200 (workstation)",
        },
    ),
    ("ryzen 9 7950x + 4090", {"name": "GeForce RTX 4090", "cpu": AM5}),
    ("i9-13900k met een 4080 super", {"name": "GeForce RTX 4080 SUPER", "cpu": AM5}),
    ("op mijn raspberry pi 5", {"name": "Raspberry Pi 5 1GB"}),
    ("raspberry pi 5 8gb", {"name": "Raspberry Pi 5 8GB", "ram": 8}),
    ("kan ik phi draaien op mijn raspberry pi 4 met 8gb", {"name": "Raspberry Pi 4 8GB"}),
    ("on my iphone 15 pro", {"name": "iPhone 15 Pro (A17 Pro) 8GB"}),
    ("op mijn telefoon", {"name": "Smartphone (typical 2023-2025) 6GB"}),
    ("alleen een cpu met 64 gb ram", {"name": "CPU", "ram": 64}),
    ("zonder gpu, 32gb werkgeheugen", {"name": "CPU", "ram": 32}),
    # data sizes and numbers are never hardware
    ("dataset of 50gb", None),
    ("een csv van 10gb met 1m rijen", None),
    ("fine-tune on 20gb of text", None),
    ("4096 tokens context", None),
    ("run llama 3 8b", None),
    # alternatives: the first option is the machine
    ("4090 of 3090?", {"name": "GeForce RTX 4090"}),
    ("4090 vs 5090", {"name": "GeForce RTX 4090"}),
    # unknown GPUs are asked about, never dropped
    ("run 7b on rtx 4095", {"error": "unknown_gpu", "suggests": "GeForce RTX 4090"}),
    ("rtx 4090 ti", {"error": "unknown_gpu", "suggests": "GeForce RTX 4090"}),
    ("arc b590", {"error": "unknown_gpu", "suggests": "Arc B580"}),
    ("op een h300", {"error": "unknown_gpu", "suggests": "H100 SXM5 80GB"}),
    ("kan dat op mijn rtx 4095", {"error": "unknown_gpu", "suggests": "GeForce RTX 4090"}),
    ("a 4090 plus an rtx 4095", {"error": "unknown_gpu", "suggests": "GeForce RTX 4090"}),
]


@pytest.mark.parametrize(("text", "expected"), PHRASINGS)
def test_hardware_as_people_type_it(text: str, expected: dict[str, Any] | None) -> None:
    draft = parse(text)
    if expected is not None and "error" in expected:
        with pytest.raises(EstimatorError) as refused:
            machine(draft)
        assert refused.value.code == expected["error"]
        if "suggests" in expected:
            assert expected["suggests"] in refused.value.params["suggestions"]
        return
    built = machine(draft)
    if expected is None:
        assert built is None, built
        return
    assert built is not None
    assert built.name == expected["name"]
    assert built.count == expected.get("count", 1)
    if "ram" in expected:
        assert built.ram_bytes == expected["ram"] * 2**30
    if "cpu" in expected:
        assert built.cpu is not None and built.cpu.name == expected["cpu"]
    if "device_gb" in expected:
        assert built.device_bytes == round(expected["device_gb"] * 2**30)
    if "assumed" in expected:
        assert any(n.key == "gpu_variant" for n in built.notes) == expected["assumed"]


def test_the_table_covers_both_languages():
    dutch = [t for t, _ in PHRASINGS if parse(t).language == "nl"]
    assert len(PHRASINGS) >= 140 and len(dutch) >= len(PHRASINGS) // 4
