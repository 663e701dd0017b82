"""Training time: FLOPs per token over achievable FLOP/s.

Full training costs 6 x parameters FLOPs per token (2 forward, 4 backward: Kaplan et al. 2020,
"Scaling Laws", C ~ 6N per token). LoRA/QLoRA freeze the base: no weight gradients for it, so
forward 2P + activation gradients 2P + 6 x the adapters. Gradient checkpointing runs the forward
pass twice: +2P (Korthikanti et al. 2022). Mixture-of-experts models count active parameters.
A frozen reference or reward model adds its forward pass (2 x its parameters) per token; PPO's
value model trains like the policy. The generations of online RL are not counted.

With the optimizer in CPU RAM (ZeRO-Offload, FSDP's CPU offload) every optimizer step also
runs Adam on the CPU and moves the gradients down and the updated weights up over PCIe, after
the GPUs' work (DeepSpeed's delayed update is off by default): Adam reads the fp32 weights,
gradients and two moments (16 bytes a trained parameter), writes the weights and moments back
(12) and the 16-bit copy the GPUs load (2), 30 bytes at the CPU's memory bandwidth; the GPUs
send 16-bit gradients and take 16-bit weights back (4 bytes), each GPU its shard over its own
PCIe link, and with the weights themselves in RAM (ZeRO-3 or FSDP offload) load every weight
for the forward and again for the backward pass (4 bytes more, of all parameters). The optimizer
is in RAM when the question asked for it or when the memory plan put it there to fit.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import engines
from .estimate import estimate
from .hardware.types import Machine
from .memory.training import lora_params
from .resolve import Resolved
from .result import Note
from .speed import Range, active_flops_per_token
from .speed_factors import CPU_DEFAULT, PCIE, PCIE_GBS, Factor

# Model FLOPs utilisation of training, by device class.
MFU = {
    "datacenter": Factor(
        0.35, 0.5, "Llama 3 405B 38-43% BF16 MFU on H100; Megatron-LM 44-52% on A100; PaLM 46.2%"
    ),
    "consumer": Factor(
        0.35, 0.5, "torchtune Llama 3.1 8B full fine-tune on one RTX 4090: 1650 tokens/s, ~48% MFU"
    ),
    "workstation": Factor(0.35, 0.5, "as datacenter GPUs (same tensor cores, no published row)"),
    "qlora": Factor(
        0.25, 0.4, "Qwen-7B Q-LoRA on one A100: ~2,340 tokens/s, ~35% MFU (Qwen README profile)"
    ),
    "apple": Factor(
        0.2,
        0.4,
        "no published LLM training row on Apple GPUs: half of the GPU range, an assumption",
    ),
    "cpu": Factor(
        0.2,
        0.4,
        "llama.cpp CPU prefill reaches ~30% of FP32 peak (S038); training kernels no better",
    ),
}
DEFAULT_TOKENS = 1_000_000
# Bytes a step moves per trained parameter with the optimizer in CPU RAM (see above).
ADAM_CPU_BYTES = 30
OFFLOAD_PCIE_BYTES = 4
PARAMETER_PCIE_BYTES = 4


@dataclass(frozen=True, slots=True)
class TrainingData:
    """A data set as people describe it: "10k examples of 1k tokens, 3 epochs".

    Every epoch passes every example once; an example longer than the sequence length is cut
    to it. Packed, or padded per batch to its longest example (transformers'
    DataCollatorWithPadding, TRL's default), the steps process about the tokens the examples
    hold; padded to the full sequence length (Axolotl pad_to_sequence_len, max_length padding)
    every example costs the whole sequence.
    """

    examples: int
    tokens_per_example: int
    epochs: float = 1.0
    pad_to_context: bool = False

    def tokens(self, context: int) -> int:
        per = context if self.pad_to_context else min(self.tokens_per_example, context)
        return max(1, round(self.examples * per * self.epochs))


@dataclass(frozen=True, slots=True)
class TrainingTime:
    tokens: int
    flops_per_token: int
    tokens_per_second: Range
    hours: Range
    steps: tuple[Note, ...]


def flops_per_token(r: Resolved) -> int:
    w = r.workload
    arch = w.model
    forward = active_flops_per_token(arch)
    if w.method in ("lora", "qlora"):
        adapters = lora_params(arch, w.lora_rank, w.lora_targets)
        total = 2 * forward + 6 * adapters
    elif w.method == "freeze":
        trainable_share = min(1.0, 2 / arch.num_layers)
        total = forward + round(2 * forward * trainable_share)
    else:
        total = 3 * forward
    total += forward if w.grad_checkpointing else 0
    if w.reference_model:
        total += forward
    reward = w.reward_model or (arch if w.objective == "ppo" else None)
    if reward is not None:
        total += active_flops_per_token(reward)
        if w.objective == "ppo":
            total += 3 * active_flops_per_token(reward)  # the value model's forward and backward
    return total


def training_time(
    r: Resolved, machine: Machine, tokens: int | TrainingData | None
) -> TrainingTime | None:
    """Time to train on `tokens` tokens, or on a described data set (a million tokens when not
    given); None when the device's FLOP/s are unknown (a GPU given only by its memory size)."""
    data: tuple[Note, ...] = ()
    if isinstance(tokens, TrainingData):
        context = r.workload.context or tokens.tokens_per_example
        count = tokens.tokens(context)
        data = (
            Note(
                "training_data",
                {
                    "examples": tokens.examples,
                    "tokens_per_example": tokens.tokens_per_example,
                    "epochs": tokens.epochs,
                    "counted": context
                    if tokens.pad_to_context
                    else min(tokens.tokens_per_example, context),
                    "tokens": count,
                },
            ),
        )
    else:
        count = tokens or DEFAULT_TOKENS
    per_token = flops_per_token(r)
    peak, devices, mfu = _peak(r, machine)
    if not peak:
        return None
    rate = Range(peak * devices * mfu.low / per_token, peak * devices * mfu.high / per_token)
    hours = rate.inverse(count / 3600)
    steps = (
        *data,
        Note(
            "training_time",
            {
                "tokens": count,
                "flops_per_token": per_token,
                "tflops": peak / 1e12,
                "devices": devices,
                "mfu_low": mfu.low,
                "mfu_high": mfu.high,
                "low": hours.low,
                "high": hours.high,
            },
        ),
    )
    offload = _offload_step(r, machine, devices)
    if offload is not None:
        tokens_per_step, seconds = offload
        rate = Range(
            tokens_per_step / (tokens_per_step / rate.low + seconds.high),
            tokens_per_step / (tokens_per_step / rate.high + seconds.low),
        )
        hours = rate.inverse(count / 3600)
        said = {"tokens": tokens_per_step, "seconds_low": seconds.low, "seconds_high": seconds.high}
        steps += (Note("training_offload", {**said, "low": hours.low, "high": hours.high}),)
    return TrainingTime(count, per_token, rate, hours, steps)


def _offload_step(r: Resolved, machine: Machine, devices: int) -> tuple[int, Range] | None:
    """With the optimizer in CPU RAM, as asked or as the memory plan put it there: the tokens
    of one optimizer step and the seconds it adds (Adam on the CPU, the copies over PCIe);
    None without offload."""
    if machine.kind != "gpu":
        return None
    est = estimate(r.workload, machine)
    i = est.inputs
    if not (i.offload or (est.offload is not None and est.offload.states_ram_bytes)):
        return None
    w = r.workload
    trained = (
        lora_params(w.model, w.lora_rank, w.lora_targets)
        if w.method in ("lora", "qlora")
        else w.model.params
    )
    cpu = machine.cpu or CPU_DEFAULT
    # Streaming over memory on a CPU, as llama.cpp's CPU decode measures it.
    streaming, _ = engines.get("llama.cpp").decode_factors("cpu")
    adam = ADAM_CPU_BYTES * trained / (cpu.bandwidth_gbs * 1e9)
    link = OFFLOAD_PCIE_BYTES * trained
    if i.shards_parameters:
        link += PARAMETER_PCIE_BYTES * w.model.params
    pcie = link / devices / (PCIE_GBS * 1e9)
    seconds = Range(
        adam / streaming.high + pcie / PCIE.high, adam / streaming.low + pcie / PCIE.low
    )
    tokens = w.batch * r.context * devices * (w.grad_accumulation or 1)
    return tokens, seconds


def _peak(r: Resolved, machine: Machine) -> tuple[float, int, Factor]:
    """Peak FLOP/s of one device, the device count, and the MFU range."""
    if machine.kind == "cpu":
        return (machine.cpu or CPU_DEFAULT).tflops_fp32 * 1e12, 1, MFU["cpu"]
    if machine.kind == "apple":
        assert machine.apple is not None
        return machine.apple.gpu_tflops_fp32[0] * 1e12, 1, MFU["apple"]
    gpu = machine.gpu
    fp32 = r.weight_format.name == "fp32"
    tflops = (gpu.tflops_fp32 if fp32 else gpu.tflops_bf16) if gpu else None
    mfu = (
        MFU["qlora"]
        if r.workload.method == "qlora"
        else MFU.get(gpu.segment if gpu else "", MFU["datacenter"])
    )
    return (tflops or 0.0) * 1e12, machine.count, mfu
