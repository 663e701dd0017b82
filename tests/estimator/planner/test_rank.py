"""The planner's order, plan against plan: what runs on the user's hardware first, fits before
offload, 4 bits or more before fewer, then quality, speed and cost."""

from dataclasses import replace

from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.planner.rank import key
from estimator.planner.types import CLOUD, MORE_GPUS, YOURS, Plan, PlanOffload
from estimator.speed import Range
from estimator.workload import Workload


def _plan(arch, **changes) -> Plan:
    w = Workload(model=arch("Qwen2.5-7B"), task="inference")
    est = estimate(w, machine(gpu="RTX 4090"))
    base = Plan(
        workload=w,
        machine=None,
        estimate=est,
        engine="vllm",
        precision="bf16",
        kv_precision="bf16",
        method="full",
        gpus=1,
        parallelism="single",
        offload=None,
        per_device_bytes=est.per_device_bytes,
        verdict="fits",
        context_max=None,
        decode=Range(40, 50),
        prefill=None,
        command="",
        hardware=YOURS,
        quality_bits=16,
        estimate_bits=16,
        low_bits=False,
        usd_per_hour=None,
        changes=(),
    )
    return replace(base, **changes)


def _order(plans: list[Plan], **kw) -> list[Plan]:
    return sorted(plans, key=lambda p: key(p, **kw))


def test_what_runs_on_the_users_hardware_comes_first(arch):
    yours = _plan(arch, quality_bits=4, estimate_bits=4.9, verdict="offload")
    cloud = _plan(arch, hardware=CLOUD, usd_per_hour=0.8)
    more = _plan(arch, hardware=MORE_GPUS, gpus=2)
    assert _order([more, cloud, yours]) == [yours, cloud, more]
    # Nothing runs on theirs: renting comes before a plan that does not fit.
    stuck = _plan(arch, verdict="does_not_fit")
    assert _order([stuck, cloud]) == [cloud, stuck]
    # More GPUs of their kind never lead unless the question asks for a GPU count.
    assert _order([more, stuck])[0] is stuck
    assert _order([more, stuck], more_gpus_first=True)[0] is more


def test_fits_before_offload_and_four_bits_before_fewer(arch):
    fits4 = _plan(arch, quality_bits=4, estimate_bits=4.9)
    offload8 = _plan(arch, quality_bits=8, estimate_bits=8.5, verdict="offload")
    fits2 = _plan(arch, quality_bits=2, estimate_bits=3.2, low_bits=True)
    offload2 = _plan(arch, quality_bits=2, estimate_bits=3.2, low_bits=True, verdict="offload")
    assert _order([offload2, fits2, offload8, fits4]) == [fits4, offload8, fits2, offload2]


def test_then_quality_then_speed_then_cost(arch):
    sixteen = _plan(arch, quality_bits=16, decode=Range(10, 20))
    eight = _plan(arch, quality_bits=8, estimate_bits=8.5, decode=Range(80, 90))
    fast = _plan(arch, quality_bits=16, decode=Range(30, 40))
    assert _order([eight, sixteen, fast]) == [fast, sixteen, eight]
    # Same quality bucket: more bits per weight first (Q4_K_M's 4.9 over AWQ's 4.3).
    q4km = _plan(arch, quality_bits=4, estimate_bits=4.9, decode=Range(10, 12))
    awq = _plan(arch, quality_bits=4, estimate_bits=4.3, decode=Range(30, 40))
    assert _order([awq, q4km]) == [q4km, awq]
    cheap = _plan(arch, hardware=CLOUD, usd_per_hour=0.8)
    dear = _plan(arch, hardware=CLOUD, usd_per_hour=3.99)
    assert _order([dear, cheap]) == [cheap, dear]


def test_partly_in_ram_a_plan_faster_than_reading_beats_a_better_format_slower_than_it(arch):
    # Reading speed: 238 words a minute at 0.75 words a token is 5.3 tokens/s. BF16 with 48
    # GiB copied over PCIe at 25 GB/s a token decodes at about 0.5 tokens/s; Q4_K_M with its
    # experts in RAM at 50.
    bf16 = _plan(arch, verdict="offload", decode=Range(0.4, 0.6))
    q4 = _plan(arch, verdict="offload", quality_bits=4.9, estimate_bits=4.9, decode=Range(48, 72))
    assert _order([bf16, q4]) == [q4, bf16]
    # Both faster than reading: the better format wins, as it does on the GPUs.
    q8 = _plan(arch, verdict="offload", quality_bits=8.5, estimate_bits=8.5, decode=Range(20, 30))
    assert _order([q4, q8]) == [q8, q4]


def test_running_for_one_user_room_to_spare_beats_a_tight_fit_at_the_same_quality(arch):
    tight = _plan(arch, verdict="tight", quality_bits=8, estimate_bits=8.9, decode=Range(27, 36))
    roomy = _plan(arch, verdict="fits", quality_bits=8, estimate_bits=8.5, decode=Range(25, 33))
    assert _order([tight, roomy]) == [roomy, tight]
    # From 8 bits up (close to lossless) room comes before the last bits: 8-bit with room before
    # a tight 16-bit; below 8 bits better quality still comes first, tight or not.
    sixteen = _plan(arch, verdict="tight", quality_bits=16, estimate_bits=16)
    assert _order([sixteen, roomy]) == [roomy, sixteen]
    four = _plan(arch, verdict="fits", quality_bits=4, estimate_bits=4.8)
    assert _order([four, tight]) == [tight, four]
    # With room to spare on both, the better one leads.
    roomy_sixteen = _plan(arch, verdict="fits", quality_bits=16, estimate_bits=16)
    assert _order([roomy, roomy_sixteen]) == [roomy_sixteen, roomy]


def test_renting_for_what_was_named_comes_before_the_cheaper_instance_for_something_else(arch):
    # "Full fine-tune, what should I rent": the H200 for it before the L4 for QLoRA.
    named = _plan(arch, hardware=CLOUD, usd_per_hour=3.99)
    other = _plan(arch, hardware=CLOUD, usd_per_hour=0.44, leaves_named=True)
    assert _order([other, named]) == [named, other]
    # Not named (a default was assumed): the cheaper instance first, as before.
    assert _order([named, replace(other, leaves_named=False)])[0].usd_per_hour == 0.44
    # On their own hardware it changes nothing: what fits there is what they have.
    mine = _plan(arch, quality_bits=8, leaves_named=True)
    assert _order([_plan(arch, verdict="does_not_fit"), mine])[0] is mine


def test_slower_than_reading_either_way_the_faster_comes_first(arch):
    # A GPU known by its memory alone has no decode range; what is in RAM still bounds it
    # (estimator.speed.ram_ceiling): a 70B's Q4_K_M with 35 of 80 layers in RAM at most 3.5
    # tokens/s, its BF16 copied over PCIe 0.24; both slower than people read (5.3).
    m = machine(gpu_memory_gb=24, ram_gb=128)
    q4 = _plan(
        arch,
        machine=m,
        verdict="offload",
        decode=None,
        quality_bits=4.8,
        offload=PlanOffload("layers", 19_552_134_234, 45),
        ram_bound=3.5,
    )
    bf16 = replace(q4, quality_bits=16, offload=PlanOffload("layers", 119_237_949_180, 11))
    bf16 = replace(bf16, ram_bound=0.24)
    assert q4.slow_offload and bf16.slow_offload
    assert _order([bf16, q4]) == [q4, bf16]
    # Fast enough to read along (an MoE with its experts in RAM), or no bound known: not slow.
    assert not replace(q4, ram_bound=416).slow_offload
    assert not replace(q4, ram_bound=None).slow_offload


def test_one_bit_formats_come_after_anything_else_that_runs(arch):
    # IQ1_S fits a 32B on a 12 GB card; Q4_K_M with 29 of 64 layers in RAM decodes at about 4
    # tokens/s, slower than people read, and still comes first: 1-bit GGUF types are "extremely
    # low quality, not recommended" (Hugging Face Hub docs on GGUF).
    one_bit = _plan(arch, quality_bits=1, estimate_bits=1.6, low_bits=True)
    slow = _plan(arch, quality_bits=4, verdict="offload", decode=Range(3.6, 5.7))
    two_bit = _plan(arch, quality_bits=2, estimate_bits=2.7, low_bits=True)
    assert slow.slow_offload
    assert _order([one_bit, slow, two_bit]) == [two_bit, slow, one_bit]


def test_a_format_counts_its_own_bits_wherever_its_weights_are(arch):
    # "torchtune full finetune qwen3 8b on 2x 4090 with fsdp and cpu offload": it runs as asked
    # with 61 GiB in RAM. Its BF16 weights are in RAM, and ranking it by the weights left on
    # the GPUs (none) put DeepSpeed ZeRO-2 first, which needs 153 GiB of RAM.
    from estimator.planner import plans

    w = Workload(
        model=arch("Qwen3-8B"), task="training", method="full", engine="torchtune", offload=True
    )
    found = plans(w, machine(gpu="RTX 4090", gpus=2))
    assert (found[0].engine, found[0].parallelism, found[0].verdict) == (
        "torchtune",
        "fsdp",
        "offload",
    )
    assert {p.estimate_bits for p in found if p.method == "full"} == {16.0}
