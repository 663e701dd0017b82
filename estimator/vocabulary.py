"""The estimator's words and defaults, in one place: every other module (and every other package)
takes its tasks, methods, verdicts, device kinds, default contexts, bounds and units from here."""

from __future__ import annotations

from typing import Literal, get_args

Task = Literal["inference", "training"]
TASKS: tuple[Task, ...] = get_args(Task)

Method = Literal["full", "lora", "qlora", "freeze"]
METHODS: tuple[Method, ...] = get_args(Method)

# What a training run optimises: supervised fine-tuning, preference optimisation against a frozen
# reference (dpo, ipo, kto) or without one (orpo, simpo), and online RL with sampled generations
# (grpo, rloo; ppo with a value model).
Objective = Literal["sft", "dpo", "ipo", "orpo", "kto", "simpo", "grpo", "ppo", "rloo"]
OBJECTIVES: tuple[Objective, ...] = get_args(Objective)
PREFERENCE_OBJECTIVES: tuple[Objective, ...] = ("dpo", "ipo", "orpo", "kto", "simpo")
ONLINE_OBJECTIVES: tuple[Objective, ...] = ("grpo", "ppo", "rloo")

# Data-parallel backends of a training run on several GPUs.
Distributed = Literal["ddp", "deepspeed", "fsdp", "hsdp"]
DISTRIBUTED: tuple[Distributed, ...] = get_args(Distributed)
OFFLOAD_DEVICES = ("cpu", "nvme")
# Where the generations of online RL come from: the policy's own generate(), or a vLLM engine
# colocated on the training GPUs.
ROLLOUT_ENGINES = ("transformers", "vllm")

Verdict = Literal["fits", "tight", "offload", "does_not_fit", "unknown"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
# The verdicts under which the workload runs as asked (tight: with under 10% headroom).
FITTING: tuple[Verdict, ...] = ("fits", "tight")

DeviceKind = Literal["gpu", "apple", "cpu"]
DEVICE_KINDS: tuple[DeviceKind, ...] = get_args(DeviceKind)

# The context an answer assumes when the question gives none: a chat turn with room to answer
# (inference), and a typical supervised fine-tuning sequence (training).
DEFAULT_CONTEXT: dict[Task, int] = {"inference": 4096, "training": 2048}
# The longest context a model is assumed to take when its config states none (the 128k of the
# Llama 3.1 / Qwen2.5 generation); charts and "x4 context" refinements stop there.
ASSUMED_MAX_CONTEXT = 131_072

# Bounds that catch typos and nonsense long before the arithmetic would.
MAX_CONTEXT = 10_000_000
MAX_SEQUENCES = 100_000
MAX_GPUS = 4096
MAX_GRAD_ACCUMULATION = 100_000
# GB of one device's memory or of RAM: below is no machine, above is a typo.
MIN_MEMORY_GB = 0.1
MAX_MEMORY_GB = 1_000_000.0
# A training data set: 10^10 examples and 10^14 tokens are beyond the largest pre-training
# corpora published (Llama 3: 15T tokens); 1000 epochs beyond any fine-tuning recipe.
MAX_EXAMPLES = 10**10
MAX_TRAINING_TOKENS = 10**14
MAX_EPOCHS = 1000
# Classical machine learning: a trillion rows or ten million features is not a table.
MAX_ROWS = 10**12
MAX_FEATURES = 10**7

MIB = 1 << 20
GIB = 1 << 30
GB = 10**9
