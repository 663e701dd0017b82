"""The hardware reader: text (a question, a profile, a --gpu flag) -> what it says about hardware,
driven by the catalogs, so a GPU, Apple chip or CPU added to the data files is read without code.

`read_hardware` returns the mention and the text with every span it read blanked out (same
length), so later readers do not take "4090" for a context length or "64GB" for VRAM twice. It
never raises: what it cannot read it reports (an unknown GPU with suggestions) or leaves alone.
"""

from __future__ import annotations

from dataclasses import replace

from . import read_devices, read_gpus
from . import words as w
from .mention import CpuMention, HardwareMention
from .reading import MAX_TEXT, Text, count_of

_COUNTED = frozenset(
    {"gpus", "cards", "kaarten", "videokaarten", "gpu", "card", "kaart", "accelerators"}
)
_OF_THEM = (("of", "them"), ("of", "those"), ("daarvan",), ("ervan",), ("van", "die"))


def read_hardware(text: str) -> tuple[HardwareMention, str]:
    t = Text.of(text)
    data = t.free_amounts("data")
    for a in data:
        t.take_amount(a)
    laptop = any(p.text in w.LAPTOP for p in t.pieces)
    apple = read_devices.apple(t)
    found, unknown = read_gpus.read(t, laptop)
    cpu = read_devices.cpu_model(t) or read_devices.cpu(t)
    options = read_gpus.options(t, found)
    gpu_count = _gpu_count(t)
    cpu_only = _cpu_only(t)
    ram = _take_first(t, ("ram",))
    if ram is None and cpu is not None and not options and apple is None:
        # "EPYC Genoa 512GB": next to a CPU and no GPU, an amount is the RAM.
        ram = _take_first(t, ("", "memory"))
    vram = _take_first(t, ("vram", "gpu", ""))
    memory = _take_first(t, ("memory",))
    if apple is not None and apple.memory_gb is None and not options:
        # "M2 with 24GB of RAM": on a Mac the RAM is the unified memory.
        if ram is not None:
            apple, ram = replace(apple, memory_gb=ram), None
        elif memory is not None:
            apple, memory = replace(apple, memory_gb=memory), None
        elif vram is not None:
            apple, vram = replace(apple, memory_gb=vram), None
    if cpu is not None and cpu.platform.device and cpu.ram_gb is None:
        if ram is not None:
            cpu, ram = CpuMention(cpu.platform, cpu.said, ram, cpu.span), None
        elif memory is not None:
            cpu, memory = CpuMention(cpu.platform, cpu.said, memory, cpu.span), None
    mention = HardwareMention(
        options=options,
        apple=apple,
        cpu=cpu,
        ram_gb=ram,
        vram_gb=vram,
        memory_gb=memory,
        gpu_count=gpu_count,
        data_gb=data[0].gb if data else None,
        laptop=laptop,
        cpu_only=cpu_only or bool(cpu and cpu.platform.device and not options and not apple),
        unknown=tuple(unknown),
    )
    return mention, t.blanked(text) + text[MAX_TEXT:]


def _take_first(t: Text, labels: tuple[str, ...]) -> float | None:
    for a in t.free_amounts():
        if a.label in labels:
            t.take_amount(a)
            return a.gb
    return None


def _gpu_count(t: Text) -> int | None:
    """ "2 GPUs", "twee kaarten", "8 of them", "a second GPU": a count of GPUs not named."""
    for i, p in enumerate(t.pieces):
        if not t.free(i):
            continue
        n = count_of(p) if p.number else w.NUMBERS.get(p.text)
        if n is None and t.word(i - 1) in w.ADDING:
            # "a second GPU" adds one to the one there is; "my second card" only points at it.
            n = w.ORDINALS.get(p.text)
        if n is None or p.text in ("a", "an", "een", "one", "single"):
            continue
        nxt = i + 1
        if t.word(nxt) == "x":
            nxt += 1
        if t.word(nxt) in _COUNTED and t.free(nxt):
            last = nxt + (1 if t.word(nxt + 1) == "s" else 0)
            t.take(i, last)
            return n
        for words in _OF_THEM:
            if t.has_phrase(nxt, words):
                t.take(i, nxt + len(words) - 1)
                return n
    return None


def _cpu_only(t: Text) -> bool:
    if [p.text for p in t.pieces] == ["cpu"]:
        t.take(0, 0)
        return True
    firsts = {words[0] for words in w.CPU_ONLY}
    for i, piece in enumerate(t.pieces):
        if piece.text not in firsts:
            continue
        for words in w.CPU_ONLY:
            if t.has_phrase(i, words) and all(t.free(i + k) for k in range(len(words))):
                t.take(i, i + len(words) - 1)
                return True
    return False
