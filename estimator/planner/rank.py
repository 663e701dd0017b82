"""The order a practitioner weighs plans in: runs on the hardware they have first (a rented
instance next, more GPUs of their kind after that, unless they asked for a GPU count); among
those, fits on the GPUs before running partly from RAM, 4 bits or more before fewer, and 1 bit
after everything else that runs; then the fewest GPUs to add (an owner buys as few cards as
will do) and the cheapest rental (a 4-bit 70B on one card at a tenth of the price of 16-bit on
eight is what people rent, unless they named the format or the training method: that is rented
first); then the highest quality (partly in RAM, a plan that decodes faster than people read
first), room to spare before a tight fit running for one user; then the fastest decode; then
the cheapest."""

from __future__ import annotations

from ..vocabulary import FITTING
from .quality import UNUSABLE_BITS
from .types import ANY, CLOUD, MORE_GPUS, YOURS, Plan

# Bits per weight from which a format is close to lossless (Q8_0, FP8: quality.py's sources).
NEAR_LOSSLESS_BITS = 8.0


def _one_user(plan: Plan) -> bool:
    w = plan.workload
    return w.task == "inference" and (w.concurrency or 1) == 1


def key(plan: Plan, more_gpus_first: bool = False) -> tuple[float, ...]:
    where: float = {YOURS: 0, CLOUD: 1, MORE_GPUS: 2, ANY: 3}[plan.hardware]
    runs = plan.runs or plan.verdict == "unknown"
    if plan.hardware == MORE_GPUS and more_gpus_first:
        tier, where = (0 if runs else 1), 0.5  # after their own hardware, before renting
    elif plan.hardware == MORE_GPUS:
        tier = 2  # more GPUs than they have only when they asked about GPU counts
    else:
        tier = 0 if runs else 1
    speed = plan.decode.high if plan.decode is not None else (plan.ram_bound or 0.0)
    if plan.verdict in FITTING:
        fit = 2.0 if plan.low_bits else 0.0
    elif plan.verdict == "offload":
        # Partly in RAM at 4 bits or more: before a low-bit fit while people can read along
        # (an MoE with its experts in RAM), after it when slower (a dense 70B over PCIe).
        fit = 3.0 if plan.low_bits else 2.5 if plan.slow_offload else 1.0
    elif plan.verdict == "unknown":
        fit = 0
    else:
        fit = 4
    if plan.runs and plan.quality_bits < UNUSABLE_BITS:
        fit = 3.5  # after any other way that runs, even one slower than people read
    added = plan.gpus if plan.hardware == MORE_GPUS else 0
    rent = (plan.usd_per_hour or 0.0) if plan.hardware == CLOUD else 0.0
    # Renting for what was asked ("full fine-tune", "in FP8") before the cheaper instance for
    # something else, which follows as the alternative.
    named = 1 if plan.hardware == CLOUD and plan.leaves_named else 0
    return (
        tier,
        where,
        fit,
        named,
        added,
        rent,
        1 if plan.slow_offload else 0,
        # Slower than people read either way, the faster one: Q4_K_M with a fifth of a 70B in
        # RAM at ~4 tokens/s before BF16 with four fifths there at ~0.7.
        -speed if plan.slow_offload else 0.0,
        # Up to 8 bits quality decides first: above it (16-bit against 8-bit, close to
        # lossless, estimator/planner/quality.py) room to spare for one user weighs more than
        # the last bits (Llama 3.1 8B on a 16 GB card: Q8_0 before F16 at 14.7 of 15.1 GiB).
        -min(plan.quality_bits, NEAR_LOSSLESS_BITS),
        # Running one user at the same quality, room to spare before a tight fit (Q8_0 at 8.2 of
        # 11.1 GiB on a 3060 before FP8 at 9.5 of vLLM's 10.0); a server for many users fills
        # its memory by design, and a training plan keeps the method asked (a full fine-tune
        # with 8-bit AdamW at 94% before switching to LoRA).
        1 if plan.verdict == "tight" and _one_user(plan) else 0,
        -plan.quality_bits,
        # Partly in RAM, speed is what differs between engines (llama.cpp computes the experts
        # it keeps in RAM there; a copy per token of the weights is what the rest do).
        -speed if plan.verdict == "offload" else 0.0,
        -plan.estimate_bits,
        -speed,
        plan.usd_per_hour or 0.0,
        plan.gpus,
    )
