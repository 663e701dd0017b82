"""Properties over many workloads: no crash, and memory that moves the right way."""

from hypothesis import given, settings
from hypothesis import strategies as st

from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.models import catalog
from estimator.workload import Workload

MODELS = [m.architecture for m in catalog.models()]
GPUS = ["RTX 4090", "A100 80GB", "H100", "M3 Max 64GB", "RTX 3060 Laptop", None]


@settings(max_examples=150, deadline=None)
@given(
    model=st.sampled_from(MODELS),
    task=st.sampled_from(["inference", "training"]),
    method=st.sampled_from([None, "full", "lora", "qlora", "freeze"]),
    engine=st.sampled_from([None, "transformers", "vllm", "llama.cpp", "deepspeed", "torchtune"]),
    context=st.integers(1, 300_000),
    concurrency=st.integers(1, 64),
    gpu=st.sampled_from(GPUS),
    gpus=st.integers(1, 8),
)
def test_any_workload_answers_or_refuses_cleanly(
    model, task, method, engine, context, concurrency, gpu, gpus
):
    try:
        hw = machine(gpu=gpu, gpus=gpus) if gpu else None
        est = estimate(
            Workload(
                model=model,
                task=task,
                method=method if task == "training" else None,
                engine=engine,
                context=context,
                concurrency=concurrency,
            ),
            hw,
        )
    except EstimatorError:
        return
    assert est.total_bytes > 0
    assert all(v >= 0 for v in est.components.as_dict().values())
    assert est.verdict in ("fits", "tight", "offload", "does_not_fit", "unknown")


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), a=st.integers(1, 32_768), b=st.integers(1, 32_768))
def test_more_context_never_less_memory(model, a, b):
    low, high = sorted((a, b))
    for engine in ("transformers", "vllm", "llama.cpp"):
        try:
            small = estimate(Workload(model=model, task="inference", engine=engine, context=low))
            big = estimate(Workload(model=model, task="inference", engine=engine, context=high))
        except EstimatorError:
            continue
        assert big.total_bytes >= small.total_bytes


@settings(max_examples=40, deadline=None)
@given(model=st.sampled_from(MODELS), users=st.integers(1, 64))
def test_more_users_never_less_memory(model, users):
    try:
        one = estimate(Workload(model=model, task="inference", engine="vllm", concurrency=users))
        more = estimate(
            Workload(model=model, task="inference", engine="vllm", concurrency=users + 1)
        )
    except EstimatorError:
        return
    assert more.total_bytes >= one.total_bytes


def test_same_input_same_answer():
    a = catalog.find("qwen2.5 7b").architecture
    first, *rest = (
        estimate(Workload(model=a, task="training", method="lora"), machine(gpu="4090"))
        for _ in range(3)
    )
    assert all(r == first for r in rest)
