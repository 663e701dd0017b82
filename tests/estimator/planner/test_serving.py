"""A queueing server (vLLM) with more users than its KV cache holds: how many run at once, at
the asked length and at a shorter average, derived by hand."""

from estimator.hardware.catalog import machine
from estimator.planner.serving import AVERAGE_TOKENS, capacity
from estimator.workload import Workload

GIB = 1 << 30


def test_fifty_users_of_8b_on_a_4090_run_nine_at_a_time_at_4k(arch):
    a = arch("Llama-3.1-8B")
    hw = machine(gpu="RTX 4090")
    found = capacity(Workload(a, "inference", engine="vllm", concurrency=50, context=4096), hw)
    assert found is not None and found.asked == 50 and found.context == 4096
    # By hand: vLLM takes 90% of 24 GiB (21.6 GiB) less the display's 0.5 and the CUDA
    # context's 0.4 GiB; the BF16 weights are 8.03e9 x 2 bytes = 15.0 GiB; each 4,096-token
    # sequence holds 4,096 x 32 layers x 2 x 8 KV heads x 128 dims x 2 bytes = 512 MiB, so
    # about (20.7 - 15.0 - activations) / 0.5 = 9 to 11 sequences, four times as many at 1,024.
    assert 9 <= found.at_once <= 11
    assert found.average_tokens == AVERAGE_TOKENS == 1024
    assert 3.5 * found.at_once <= found.at_average <= 4.5 * found.at_once
    assert found.decode is not None and 0 < found.decode.low <= found.decode.high


def test_nothing_to_say_when_all_users_fit_or_the_engine_does_not_queue(arch):
    a = arch("Llama-3.1-8B")
    hw = machine(gpu="RTX 4090")
    assert capacity(Workload(a, "inference", engine="vllm", concurrency=2), hw) is None
    assert capacity(Workload(a, "inference", engine="llama.cpp", concurrency=50), hw) is None
