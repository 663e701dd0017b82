"""Different GPUs in one machine: per-card memory, layers in proportion to memory, tensor
parallel bounded by the smallest card, the slowest card bounding speed."""

from estimator import engines
from estimator.cost import electricity, purchase
from estimator.estimate import estimate
from estimator.hardware.catalog import find_gpu, machine
from estimator.hardware.types import Machine
from estimator.memory import constants as k
from estimator.planner import MORE_GPUS, plans
from estimator.report import report
from estimator.workload import Workload
from tests.estimator.test_engines_commands import flags


def _mixed(*names: str, ram_gb: int = 64) -> Machine:
    cards = tuple(find_gpu(n) for n in names)
    label = " + ".join(c.name for c in cards)
    return Machine(
        "gpu", label, cards[0].memory_bytes, len(cards), ram_gb << 30, gpu=cards[0], cards=cards
    )


def test_each_card_has_its_own_usable_memory(arch):
    hw = _mixed("RTX 4090", "RTX 3060")
    w = Workload(model=arch("Llama-3.1-8B"), task="inference", engine="llama.cpp")
    first, second = estimate(w, hw).devices
    big, small = hw.cards
    # The first card drives the display; both hold a CUDA context.
    assert first.usable_bytes == big.memory_bytes - k.CUDA_CONTEXT_BYTES - k.DISPLAY_SHARE_BYTES
    assert second.usable_bytes == small.memory_bytes - k.CUDA_CONTEXT_BYTES
    assert first.capacity_bytes == big.memory_bytes and second.capacity_bytes == small.memory_bytes


def test_layers_split_in_proportion_to_memory(arch):
    hw = _mixed("RTX 4090", "RTX 3060")
    w = Workload(
        model=arch("Llama-3.1-70B"),
        task="inference",
        engine="llama.cpp",
        precision="q2_k",
        context=8192,
    )
    est = estimate(w, hw)
    first, second = est.devices
    assert first.layers + second.layers == 80
    # 24 GiB against 12 GiB: about two layers on the 4090 for every one on the 3060, and each
    # card as full as the other within one layer.
    assert 1.8 <= first.layers / second.layers <= 2.3
    layer = est.components.weights / 80
    fill = [d.components.total / d.capacity_bytes for d in est.devices]
    assert abs(fill[0] - fill[1]) < layer / second.capacity_bytes
    _, f = flags(engines.command(est))
    assert f["--tensor-split"] == f"{first.layers},{second.layers}"


def test_tensor_parallel_is_bounded_by_the_smallest_card(arch):
    w = Workload(
        model=arch("Llama-3.1-70B"), task="inference", engine="vllm", precision="awq", context=8192
    )
    est = estimate(w, _mixed("RTX 4090", "RTX 3060"))
    first, second = est.devices
    assert first.components == second.components  # equal shards
    assert first.components.total <= first.usable_bytes
    assert second.components.total > second.usable_bytes
    assert est.verdict == "does_not_fit"


def test_a_layer_split_decodes_at_each_cards_bandwidth_in_turn(arch):
    hw = _mixed("RTX 4090", "RTX 3090")
    w = Workload(
        model=arch("Llama-3.1-70B"),
        task="inference",
        engine="llama.cpp",
        precision="q4_k_m",
        context=4096,
    )
    rep = report(w, hw)
    assert rep.estimate.verdict in ("fits", "tight")
    seconds = sum(
        (d.components.weights + d.components.kv_cache) / (c.bandwidth_gbs * 1e9 * 0.9)
        for d, c in zip(rep.estimate.devices, hw.cards, strict=True)
    )
    assert rep.speed.decode_per_sequence.high <= 1 / seconds


def test_tensor_parallel_runs_at_the_slowest_card(arch):
    w = Workload(model=arch("Qwen2.5-7B"), task="inference", engine="vllm")
    mixed = report(w, _mixed("RTX 4090", "RTX 3060")).speed.decode_per_sequence
    slow = report(
        w,
        Machine(
            "gpu", "2x RTX 3060", find_gpu("RTX 3060").memory_bytes, 2, gpu=find_gpu("RTX 3060")
        ),
    ).speed.decode_per_sequence
    assert mixed.high == slow.high


def test_power_and_price_add_up_each_card():
    hw = _mixed("RTX 4090", "RTX 3090")
    # Catalog board power 450 W + 350 W; launch prices 1,599 + 1,499 USD.
    power = electricity(hw, 0.16, None)
    assert power is not None and power.watts == 800 and power.per_hour == 0.8 * 0.16
    bought = purchase(hw, 2.0)
    assert bought is not None and bought.usd == 3098 and bought.verified
    assert bought.break_even_hours == 3098 / 2.0


def test_more_gpus_are_more_of_the_first_card_by_its_own_name(arch):
    # No RAM given: nothing offloads, so 405B plans more GPUs.
    hw = machine(gpu="RTX 4090 + RTX 3090")
    w = Workload(model=arch("Llama-3.1-405B"), task="inference", engine="vllm")
    more = [p for p in plans(w, hw) if p.kind == MORE_GPUS]
    assert more
    for p in more:
        assert p.machine.name == "GeForce RTX 4090" and not p.machine.cards
        assert p.machine.device_capacities == (hw.cards[0].memory_bytes,) * p.machine.count
