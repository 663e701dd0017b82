"""The rule base: one rule per piece of advice, each with an id a user can ask about ("why?"),
a priority (lower fires first, and orders the answer) and the alternative it recommends.

Rules only compare the numbers of the fact (rules/facts.py); the estimator computed them.
Wording lives in the message catalogs under rule.<id>.title and rule.<id>.detail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from durable.lang import m

# Thresholds of the CPU-versus-GPU guidance. They are this product's advice, stated with it.
SMALL_LLM_M = 3500  # "about 3B and below": Qwen2.5-3B's 3.09B is small, Phi-3-mini's 3.82B is not
LOW_CONCURRENCY = 2
LARGE_LLM_M = 13000
MANY_USERS = 4
TINY_LLM_M = 1000  # below 1B a GPU decode step is mostly fixed overhead (vLLM Qwen2.5-0.5B: 0.5 of 3.2 ms, S030)
BILLION_M = 1000
CLASSICAL_GPU_ROWS = 10_000_000
SMALL_NET_M = 100
# Household circuits a desktop's GPUs may outgrow: a US 15 A, 120 V circuit carries 1,800 W and
# 1,440 W continuously (80% rule, NEC 210.19); a European 16 A, 230 V one 3,680 W (the Dutch
# "groep" of NEN 1010). The rule fires past the smaller; the wording says which circuit it means.
POWER_CIRCUIT_W = 1440
EU_CIRCUIT_W = 3680
LONG_CONTEXT = 8192
# A fused loss is worth a line when it frees at least this much of a GPU, in bytes and as a share
# of what the run needs there: the logits of a long sequence, not a rounding.
FUSED_LOSS_WORTH_BYTES = 1 << 30
FUSED_LOSS_WORTH_PCT = 15
# A context shorter than this cannot hold a system prompt, a question and an answer: a
# "shorter context" that small is no fix worth offering.
MIN_USEFUL_CONTEXT = 1024


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    priority: int
    when: Callable[[], Any]  # builds the durable condition (needs the DSL's `m`)
    alternative: str | None = None  # the alternative whose memory and verdict it quotes
    group: str = "note"  # guidance, plan, ladder, hardware, cost, launch
    plan: str | None = None  # where the plan it recommends runs (yours, more_gpus, cloud)


def _llm() -> Any:
    return (m.t == "workload") & (m.kind == "llm")


def _not_fitting() -> Any:
    return (m.verdict == "does_not_fit") | (m.verdict == "offload")


def _fitting() -> Any:
    return (m.verdict == "fits") | (m.verdict == "tight")


def _no_plan_here() -> Any:
    """No plan on the user's own hardware changes the question into one that runs: the ladder's
    one-change steps are what is left to say."""
    return m.plan_yours_runs == 0


def _no_plan_at_all() -> Any:
    return m.plan_runs == 0


def _training_step(name: str) -> Callable[[], Any]:
    return lambda: (
        _llm()
        & (m.task == "training")
        & _not_fitting()
        & (getattr(m, f"{name}_fits") == 1)
        & _no_plan_here()
    )


def _more_gpus_in_scope() -> Any:
    """Someone choosing hardware, with several GPUs, or asking about a GPU count: not a single-GPU
    owner, who would have to buy cards to follow the advice."""
    return (m.owns == 0) | (m.gpu_count > 1) | (m.asked_gpus == 1)


def _inference_step(name: str) -> Callable[[], Any]:
    return lambda: (
        _llm()
        & (m.task == "inference")
        & _not_fitting()
        & (getattr(m, f"{name}_fits") == 1)
        & _no_plan_here()
    )


RULES: tuple[Rule, ...] = (
    Rule("tight_headroom", 5, lambda: _llm() & (m.verdict == "tight"), group="verdict"),
    # CPU versus GPU.
    Rule(
        "classical_ml_cpu",
        10,
        lambda: (m.t == "workload") & (m.kind == "classical") & (m.rows < CLASSICAL_GPU_ROWS),
        group="guidance",
    ),
    Rule(
        "classical_ml_large",
        11,
        lambda: (m.t == "workload") & (m.kind == "classical") & (m.rows >= CLASSICAL_GPU_ROWS),
        group="guidance",
    ),
    Rule(
        "small_net_cpu",
        12,
        lambda: (
            (m.t == "workload")
            & (m.kind == "neural_net")
            & (m.params_m < SMALL_NET_M)
            & (m.retrain_often == 0)
        ),
        group="guidance",
    ),
    Rule(
        "small_net_retrained",
        13,
        lambda: (
            (m.t == "workload")
            & (m.kind == "neural_net")
            & ((m.params_m >= SMALL_NET_M) | (m.retrain_often == 1))
        ),
        group="guidance",
    ),
    Rule(
        "llm_training_gpu",
        14,
        lambda: (
            _llm()
            & (m.task == "training")
            # An Apple chip trains on its own GPU: the answer's time is that GPU's, not a CPU's.
            & (m.device != "gpu")
            & (m.device != "apple")
            & (m.params_m >= BILLION_M)
            & (m.cpu_hours_low > 0)
        ),
        group="guidance",
    ),
    Rule(
        "small_llm_cpu",
        15,
        lambda: (
            _llm()
            & (m.task == "inference")
            & (m.params_m <= SMALL_LLM_M)
            & (m.concurrency <= LOW_CONCURRENCY)
            & (m.cpu_tps_low > 0)
        ),
        group="guidance",
    ),
    Rule(
        "large_llm_gpu",
        16,
        lambda: (
            _llm()
            & (m.task == "inference")
            & ((m.device == "cpu") | (m.device == "none"))
            & ((m.params_m > LARGE_LLM_M) | (m.concurrency > MANY_USERS))
        ),
        group="guidance",
    ),
    Rule(
        "tiny_llm_gpu_waits",
        17,
        lambda: (
            _llm()
            & (m.task == "inference")
            & (m.params_m < TINY_LLM_M)
            & (m.concurrency == 1)
            & (m.device == "gpu")
        ),
        group="guidance",
    ),
    # The planner's plan for what does not run as asked: on the user's hardware first; on more
    # GPUs of the kind only for someone who could add them; rented only where renting is an
    # option. The first that fires leads the answer; the others are its alternatives.
    Rule(
        "plan_yours",
        18,
        lambda: _llm() & _not_fitting() & (m.plan_yours_runs == 1),
        group="plan",
        plan="yours",
    ),
    # What runs as asked, but clearly faster another way at the same quality.
    Rule(
        "plan_faster",
        18,
        lambda: _llm() & _fitting() & (m.plan_faster == 1),
        group="plan",
        plan="faster",
    ),
    Rule(
        "plan_more_gpus",
        18,
        lambda: _llm() & _not_fitting() & (m.plan_more_gpus_runs == 1) & _more_gpus_in_scope(),
        group="plan",
        plan="more_gpus",
    ),
    # The model does not run on the owner's hardware: a smaller model of its line that does,
    # before renting.
    Rule(
        "smaller_model",
        19,
        lambda: _llm() & _not_fitting() & (m.owns == 1) & (m.smaller_model_fits == 1),
        "smaller_model",
        "ladder",
    ),
    Rule(
        "plan_cloud",
        19,
        # Also for no hardware at all (verdict unknown): renting is then the answer's plan.
        lambda: (
            _llm()
            & (_not_fitting() | (m.verdict == "unknown"))
            & (m.plan_cloud_runs == 1)
            & (m.cloud_ok == 1)
        ),
        group="plan",
        plan="cloud",
    ),
    # The training fit ladder, in the order to try it.
    # One flag, no quality cost: first, also when the run fits (the room buys context), and
    # whenever it makes a run fit that does not.
    Rule(
        "train_fused_loss",
        19,
        lambda: (
            _llm()
            & (m.task == "training")
            & (m.fused_loss_saved_bytes >= FUSED_LOSS_WORTH_BYTES)
            & (
                (m.fused_loss_saved_pct >= FUSED_LOSS_WORTH_PCT)
                | (_not_fitting() & (m.fused_loss_fits == 1))
            )
        ),
        "fused_loss",
        "ladder",
    ),
    Rule("train_lora", 20, _training_step("lora"), "lora", "ladder"),
    Rule("train_qlora", 21, _training_step("qlora"), "qlora", "ladder"),
    Rule("train_checkpointing", 22, _training_step("checkpointing"), "checkpointing", "ladder"),
    Rule("train_shorter", 23, _training_step("shorter"), "shorter", "ladder"),
    Rule("train_adam8bit", 24, _training_step("adam8bit"), "adam8bit", "ladder"),
    Rule(
        "train_zero3",
        25,
        lambda: _training_step("zero3")() & _more_gpus_in_scope() & _no_plan_at_all(),
        "zero3",
        "ladder",
    ),
    Rule("train_offload", 26, _training_step("offload"), "offload", "ladder"),
    Rule(
        "train_cloud",
        27,
        lambda: _training_step("cloud")() & (m.cloud_ok == 1) & _no_plan_at_all(),
        "cloud",
        "ladder",
    ),
    # The inference fit ladder.
    Rule("infer_fp8", 30, _inference_step("fp8"), "fp8", "ladder"),
    Rule("infer_int8", 31, _inference_step("int8"), "int8", "ladder"),
    Rule("infer_int4", 32, _inference_step("int4"), "int4", "ladder"),
    Rule("infer_kv8", 33, _inference_step("kv8"), "kv8", "ladder"),
    # Many users: a server queues the ones that do not fit, so fewer at once comes first.
    Rule("infer_fewer_users", 34, _inference_step("fewer_users"), "fewer_users", "ladder"),
    Rule(
        "infer_shorter",
        35,
        lambda: _inference_step("shorter")() & (m.shorter_context >= MIN_USEFUL_CONTEXT),
        "shorter",
        "ladder",
    ),
    Rule(
        "infer_tensor_parallel",
        36,
        lambda: _inference_step("tensor_parallel")() & _more_gpus_in_scope() & _no_plan_at_all(),
        "tensor_parallel",
        "ladder",
    ),
    Rule(
        "infer_offload_layers",
        37,
        lambda: (
            _llm() & (m.task == "inference") & _not_fitting() & (m.offload_layers_gpu_layers >= 0)
        ),
        "offload_layers",
        "ladder",
    ),
    Rule(
        "infer_apple_limit",
        38,
        lambda: (
            _llm() & (m.device == "apple") & (m.verdict == "offload") & (m.apple_limit_bytes > 0)
        ),
        "apple_limit",
        "ladder",
    ),
    Rule(
        "infer_cloud",
        39,
        lambda: _inference_step("cloud")() & (m.cloud_ok == 1) & _no_plan_at_all(),
        "cloud",
        "ladder",
    ),
    Rule(
        "give_ram",
        40,
        lambda: (
            _llm()
            & (m.task == "inference")
            & (m.device == "gpu")
            & (m.verdict == "does_not_fit")
            & (m.ram_known == 0)
            & _no_plan_here()
        ),
        group="ladder",
    ),
    # Hardware notes.
    Rule(
        "speed_needs_gpu_model",
        41,
        lambda: (
            _llm() & (m.task == "inference") & (m.device == "gpu") & (m.gpu_bandwidth_known == 0)
        ),
        group="hardware",
    ),
    Rule("no_bf16", 41, lambda: _llm() & (m.device == "gpu") & (m.gpu_bf16 == 0), group="hardware"),
    Rule(
        "no_flash_attention",
        42,
        lambda: (
            _llm() & (m.gpu_fa2 == "no") & ((m.task == "training") | (m.context > LONG_CONTEXT))
        ),
        group="hardware",
    ),
    Rule(
        "no_nvlink",
        43,
        lambda: _llm() & (m.gpu_count > 1) & (m.gpu_nvlink == 0) & (m.gpu_mixed == 0),
        group="hardware",
    ),
    Rule("no_nvlink_mixed", 43, lambda: _llm() & (m.gpu_mixed == 1), group="hardware"),
    Rule(
        "display_gpu",
        44,
        lambda: (
            _llm() & (m.gpu_display == 1) & ((m.verdict == "tight") | (m.verdict == "does_not_fit"))
        ),
        group="hardware",
    ),
    Rule(
        "apple_working_set",
        45,
        # Close to the limit, not past it: past it the verdict and the plans say what to do.
        lambda: (
            _llm()
            & (m.device == "apple")
            & (m.per_device_bytes > m.usable_bytes * 0.8)
            & (m.per_device_bytes <= m.usable_bytes)
        ),
        group="hardware",
    ),
    # Cost notes.
    # Buying against renting is for someone choosing hardware, not for its owner.
    Rule(
        "cloud_or_buy",
        50,
        # Not for someone renting the machine already: "on a rented H100" asks what renting it
        # costs, which the answer's cost lines say.
        lambda: _llm() & _fitting() & (m.break_even_hours > 0) & (m.owns == 0) & (m.rented == 0),
        group="cost",
    ),
    # The power bill and the wall circuit are the owner's of a machine, not a renter's.
    Rule(
        "electricity",
        51,
        lambda: _llm() & (m.power_usd_per_hour > 0) & (m.rented == 0),
        group="cost",
    ),
    Rule(
        "maintenance",
        52,
        lambda: _llm() & _fitting() & (m.purchase_usd > 0) & (m.owns == 0) & (m.rented == 0),
        group="cost",
    ),
    Rule(
        "power_and_cooling",
        53,
        lambda: _llm() & (m.gpu_watts > POWER_CIRCUIT_W) & (m.gpu_desktop == 1) & (m.rented == 0),
        group="cost",
    ),
    # Commands to paste, for what fits.
    Rule("launch", 60, lambda: _llm() & (m.launch == 1), group="launch"),
    Rule(
        "launch_peft",
        62,
        lambda: (
            _llm()
            & (m.task == "training")
            & ((m.method == "lora") | (m.method == "qlora"))
            & (m.engine == "transformers")
            & _fitting()
        ),
        group="launch",
    ),
)

BY_ID = {rule.id: rule for rule in RULES}
