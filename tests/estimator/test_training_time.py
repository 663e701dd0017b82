"""Training tokens from a data set's description: examples x tokens x epochs."""

import pytest

from estimator.hardware.catalog import machine
from estimator.resolve import resolve
from estimator.training_time import TrainingData, training_time
from estimator.workload import Workload


def test_examples_times_tokens_times_epochs():
    assert TrainingData(10_000, 1_000, 3).tokens(2048) == 30_000_000
    assert TrainingData(50_000, 2_000).tokens(4096) == 100_000_000


def test_long_examples_are_cut_to_the_sequence_and_padding_costs_the_sequence():
    assert TrainingData(1_000, 5_000).tokens(2048) == 1_000 * 2048
    assert TrainingData(1_000, 500, pad_to_context=True).tokens(2048) == 1_000 * 2048


def test_training_time_states_the_data_set(arch):
    w = Workload(model=arch("qwen2.5 7b"), task="training", method="lora", context=4096)
    m = machine(gpu="H100")
    r = resolve(w, m)
    time = training_time(r, m, TrainingData(10_000, 1_000, 3))
    assert time is not None and time.tokens == 30_000_000
    data = time.steps[0].params
    assert (data["examples"], data["counted"], data["epochs"], data["tokens"]) == (
        10_000,
        1_000,
        3,
        30_000_000,
    )
    assert training_time(r, m, 30_000_000).hours == time.hours


def test_the_optimizer_in_cpu_ram_adds_adam_on_the_cpu_and_the_pcie_copies_to_each_step(arch):
    """A full fine-tune of Qwen3-8B (8.19e9 parameters) with torchtune's FSDP CPU offload on 2x
    RTX 4090, batch 1 of 2,048 tokens: a step is 2 x 2,048 tokens. Adam on the CPU moves 30
    bytes a parameter, 2.457e11 bytes at 89.6 GB/s (DDR5-5600 dual channel) streamed at
    45-75%: 3.66-6.09 s. Each GPU sends its half of the 16-bit gradients, takes back the 16-bit
    weights and loads every weight twice (8 bytes a parameter, halved): 3.28e10 bytes at
    31.5 GB/s x 0.8-0.9: 1.16-1.30 s. Without it the GPUs alone train a million tokens in
    0.10-0.15 hours; with it each 4,096 tokens wait 4.8-7.4 s more."""
    a = arch("Qwen3-8B")
    hw = machine(gpu="RTX 4090", gpus=2)
    w = Workload(model=a, task="training", method="full", engine="torchtune", offload=True)
    r = resolve(w, hw)
    plain = training_time(resolve(Workload(model=a, task="training", method="full",
                                           engine="torchtune"), hw), hw, None)  # fmt: skip
    slow = training_time(r, hw, None)
    (note,) = [n for n in slow.steps if n.key == "training_offload"]
    p = a.params
    adam = 30 * p / 89.6e9
    pcie = 8 * p / 2 / 31.5e9
    assert note.params["tokens"] == 2 * 2048
    assert note.params["seconds_low"] == pytest.approx(adam / 0.75 + pcie / 0.9)
    assert note.params["seconds_high"] == pytest.approx(adam / 0.45 + pcie / 0.8)
    assert 4.7 < note.params["seconds_low"] < 4.9 and 7.3 < note.params["seconds_high"] < 7.5
    fast = plain.tokens_per_second.high
    assert slow.tokens_per_second.high == pytest.approx(
        4096 / (4096 / fast + note.params["seconds_low"])
    )
    assert slow.hours.low > 3 * plain.hours.low
