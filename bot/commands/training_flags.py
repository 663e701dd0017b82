"""The training flags of `llm-sizer estimate` and `fit` beyond method and framework: kept apart
from the command so that building the parser imports no estimator arithmetic."""

from __future__ import annotations

import argparse

from estimator.vocabulary import DISTRIBUTED, OBJECTIVES, OFFLOAD_DEVICES, ROLLOUT_ENGINES


def training_args(p: argparse.ArgumentParser) -> None:
    """The training settings beyond method and framework, and the data set for time and cost."""

    def toggle(flag: str, text: str) -> None:
        p.add_argument(flag, action=argparse.BooleanOptionalAction, default=None, help=text)

    p.add_argument(
        "--distributed", help=f"data-parallel backend: {', '.join(DISTRIBUTED)} (default by GPUs)"
    )
    p.add_argument(
        "--offload-device", default="cpu", help=f"--offload to {' or '.join(OFFLOAD_DEVICES)}"
    )
    toggle("--liger", "Liger kernels: fused RMSNorm, SwiGLU and linear cross-entropy")
    toggle("--compile", "torch.compile")
    toggle("--chunked-loss", "torchtune's chunked cross-entropy (its default)")
    toggle("--optimizer-in-backward", "torchtune: optimizer step fused into the backward")
    toggle("--activation-offload", "activations (checkpoints) offloaded to CPU RAM")
    toggle("--mixed-precision", "fp32 master weights and optimizer states (off: pure bf16)")
    p.add_argument("--grad-accumulation", help="gradient accumulation steps")
    p.add_argument("--objective", help=f"training objective: {', '.join(OBJECTIVES)} (default sft)")
    toggle("--reference-model", "load a frozen reference model (DPO, KTO, RLOO, PPO)")
    p.add_argument("--group-size", help="completions per prompt (GRPO num_generations)")
    p.add_argument("--generation-length", help="completion tokens (GRPO max_completion_length)")
    p.add_argument(
        "--rollout-engine", help=f"generations from: {' or '.join(ROLLOUT_ENGINES)} (colocated)"
    )
    p.add_argument("--rollout-memory-utilization", help="a colocated vLLM's share of each GPU")
    p.add_argument("--reward-model", help="a separate reward (and PPO value) model")
    p.add_argument(
        "--examples", help="training examples, for time and cost (with --example-tokens)"
    )
    p.add_argument("--example-tokens", help="tokens per example, e.g. 1k")
    p.add_argument("--epochs", help="passes over the examples (default 1)")
