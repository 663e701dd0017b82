"""What the planner returns: one plan per way of running the workload, with its estimate."""

from __future__ import annotations

from dataclasses import dataclass

from ..hardware.types import Machine
from ..result import Estimate
from ..speed import Range
from ..vocabulary import Verdict
from ..workload import Workload

# Where a plan runs: on the hardware the user has, on more GPUs of the same kind, on a rented
# cloud instance, or on no hardware at all (the question gave none).
YOURS = "yours"
MORE_GPUS = "more_gpus"
CLOUD = "cloud"
ANY = "any"


# Reading speed in tokens per second: 238 words a minute for silent reading of English
# non-fiction (Brysbaert 2019, Journal of Memory and Language 109, 104047) at 0.75 words a token
# (OpenAI's tokenizer rule of thumb). Partly in RAM, 16-bit weights copied at PCIe or RAM speed
# decode slower than that while a 4-bit format with its experts in RAM chats at 50 tokens/s:
# the one someone can read along with wins, whatever its bits.
READING_TOKENS_S = 238 / 60 / 0.75


def reads_along(decode: Range) -> bool:
    """Decodes (the middle of its range) at least as fast as people read."""
    return (decode.low + decode.high) / 2 >= READING_TOKENS_S


@dataclass(frozen=True, slots=True)
class PlanOffload:
    """What a plan keeps in CPU RAM."""

    # layers, experts, embeddings; for training optimizer (states below ZeRO-3), parameters (the
    # sharded parameters, gradients and optimizer states), activations (checkpoints in RAM), or
    # either states with "_activations"
    what: str
    ram_bytes: int
    gpu_layers: int | None = None  # layers on the GPUs (layers offload)
    expert_layers: int = 0  # llama.cpp --n-cpu-moe N (experts offload)


@dataclass(frozen=True, slots=True)
class Plan:
    workload: Workload  # what the plan runs, with every choice it makes stated
    machine: Machine | None  # the hardware it runs on
    estimate: Estimate
    engine: str
    precision: str
    kv_precision: str | None
    method: str
    gpus: int
    parallelism: str  # single, tensor, layers, ddp, zero2, zero3, fsdp, cpu, unified
    offload: PlanOffload | None
    per_device_bytes: int  # on the fullest GPU (what stays there when the rest is in RAM)
    verdict: Verdict
    context_max: int | None  # the longest context that still fits, None when not computed
    decode: Range | None  # tokens/s of one sequence, only for plans that run
    prefill: Range | None
    command: str
    hardware: str  # YOURS, MORE_GPUS, CLOUD, ANY
    quality_bits: float  # bits per weight as quality goes: the checkpoint's own format = 16
    estimate_bits: float  # the format's bits per weight, scales included (breaks ties)
    low_bits: bool  # below 4 bits per weight: noticeable quality loss
    usd_per_hour: float | None  # a rented instance's price
    changes: tuple[str, ...]  # what differs from the question: precision, engine, gpus, ...
    # Leaves what the question itself named: its training method, or its weight format for
    # one of another size (FP8 asked, AWQ 4-bit planned); defaults chosen for it do not count.
    leaves_named: bool = False
    # Partly in RAM on a GPU known by its memory alone (no decode range): the most tokens/s the
    # part in RAM allows (estimator.speed.ram_ceiling), None otherwise.
    ram_bound: float | None = None

    @property
    def slow_offload(self) -> bool:
        """Partly in RAM and slower than people read (the middle of its decode range): a 16-bit
        model copied over PCIe, a dense 70B with layers in RAM, unlike an MoE with its experts
        there. With no decode range (a GPU known by its memory alone), by the RAM's bound."""
        if self.verdict != "offload":
            return False
        if self.decode is not None:
            return not reads_along(self.decode)
        bound = self.ram_bound
        return bound is not None and bound < READING_TOKENS_S

    @property
    def runs(self) -> bool:
        """Runs as planned on its hardware (possibly with part of it in RAM)."""
        return self.verdict in ("fits", "tight", "offload")

    @property
    def kind(self) -> str:
        """What kind of change the plan makes, the most far-reaching first: the answer's
        alternatives differ in kind."""
        if self.hardware in (CLOUD, MORE_GPUS):
            return self.hardware
        for change in (
            "offload",
            "method",
            "sharding",
            "optimizer",
            "checkpointing",
            "batch",
            "engine",
            "precision",
            "kv_precision",
            "context",
        ):
            if change in self.changes:
                return change
        return "as_asked"
