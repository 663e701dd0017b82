"""Training tokens from a data set's description: examples x tokens x epochs."""

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
