"""The training plans' commands: the settings that run what was estimated, in the trainer's
config for the objective (TRL's GRPOConfig, DPOConfig, CPOConfig for SimPO)."""

from dataclasses import replace

from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.planner.ladder import fused_loss
from estimator.planner.training import command, options
from estimator.workload import Workload


def _command(a, gpu="RTX 3060", gpus=1, **kw):
    m = machine(gpu=gpu, gpus=gpus)
    est = estimate(Workload(model=a, task="training", **kw), m)
    return est, command(est, m)


def test_unsloth_grpo_loads_4_bits_and_uses_grpo_config(arch):
    _, cmd = _command(arch("qwen2.5 3b"), engine="unsloth", objective="grpo", group_size=8)
    assert cmd == (
        "FastLanguageModel.from_pretrained(<model>, max_seq_length=1024, load_in_4bit=True); "
        'FastLanguageModel.get_peft_model(model, r=16, use_gradient_checkpointing="unsloth"); '
        "GRPOConfig(num_generations=8, max_completion_length=512, "
        'per_device_train_batch_size=1, optim="adamw_8bit")'
    )


def test_a_vllm_rollout_asks_for_the_share_the_estimate_reserved(arch):
    est, cmd = _command(
        arch("qwen2.5 3b"), engine="unsloth", objective="grpo", rollout_engine="vllm"
    )
    share = next(n.params["utilization"] for n in est.steps if n.key == "vllm_rollout")
    assert share == 0.3  # TRL's vllm_gpu_memory_utilization default
    assert f"fast_inference=True, gpu_memory_utilization={share}" in cmd
    assert "GRPOConfig(num_generations=8, max_completion_length=512, use_vllm=True," in cmd
    _, trl = _command(arch("qwen2.5 0.5b"), method="lora", objective="grpo", rollout_engine="vllm")
    assert 'vllm_mode="colocate", vllm_gpu_memory_utilization=0.3' in trl


def test_trl_grpo_generates_whole_groups(arch):
    """GRPOConfig's generation batch must hold whole groups: 2 per GPU on 4 GPUs is 8, one
    group of 8; 1 on one GPU needs a generation batch of 8."""
    _, one = _command(arch("qwen2.5 0.5b"), method="lora", objective="grpo")
    assert "generation_batch_size=8," in one
    _, four = _command(
        arch("qwen2.5 0.5b"), gpu="A100 80GB", gpus=4, method="lora", objective="grpo", batch=2
    )
    assert "generation_batch_size=8," in four


def test_preference_objectives_use_their_trl_config(arch):
    a = arch("qwen2.5 0.5b")
    assert (
        "; DPOConfig(per_device_train_batch_size=1,"
        in _command(a, method="qlora", objective="dpo")[1]
    )
    assert 'DPOConfig(loss_type="ipo", ' in _command(a, method="qlora", objective="ipo")[1]
    assert 'CPOConfig(loss_type="simpo", ' in _command(a, method="qlora", objective="simpo")[1]
    assert "; TrainingArguments(" in _command(a, method="qlora")[1]


def test_an_unsloth_full_fine_tune_adds_no_adapters(arch):
    _, cmd = _command(arch("qwen2.5 0.5b"), engine="unsloth", method="full")
    assert "full_finetuning=True" in cmd and "get_peft_model" not in cmd
    assert cmd.endswith('SFTConfig(per_device_train_batch_size=1, optim="adamw_8bit")')


def _settings_tried(arch, hardware, method):
    w = Workload(model=arch("qwen2.5 3b"), task="training", method=method)
    return [o.workload for o in options(w, machine(gpu=hardware))]


def test_without_a_gpu_of_its_own_no_bitsandbytes_optimizer_and_no_ram_offload(arch):
    # A 3B full fine-tune does not fit in 48 GB of an M2 Ultra's 64 (49.7 GiB): on a GPU the
    # search would go on to bitsandbytes' 8-bit and paged AdamW and to ZeRO-Offload; on unified
    # memory the RAM is where the model is already, and bitsandbytes is GPU code.
    tried = _settings_tried(arch, "M2 Ultra 64GB", "full")
    assert tried
    assert all(w.optimizer in (None, "adamw") and not w.offload for w in tried)
    on_gpu = _settings_tried(arch, "RTX 4090", "full")
    assert any(w.optimizer == "adamw_8bit" or w.offload for w in on_gpu)


def test_liger_fused_loss_is_offered_on_gpus_only(arch):
    w = Workload(model=arch("qwen2.5 3b"), task="training", method="full")
    for hardware, offered in (("M2 Ultra 64GB", False), ("A100 80GB", True)):
        m = machine(gpu=hardware)
        assert (fused_loss(w, m, estimate(w, m)) is not None) is offered


def test_activations_that_do_not_fit_are_checkpointed_then_micro_batched(arch):
    # A full fine-tune of Qwen3-8B at 4 x 8,192 tokens with checkpointing off on 4x A100 40GB:
    # 258 GiB of activations a GPU. Checkpointed, 4 x 8,192 tokens still keep 4 x 19.9 GB of fp32
    # logits and their gradient; one sequence per micro-batch fits (torchtune's FSDP: 24 GiB).
    from estimator.planner import plans

    w = Workload(
        model=arch("Qwen3-8B"),
        task="training",
        method="full",
        engine="deepspeed",
        zero=3,
        context=8192,
        batch=4,
        grad_checkpointing=False,
    )
    m = machine(gpu="A100 40GB", gpus=4)
    assert estimate(w, m).verdict == "does_not_fit"
    best = plans(w, m)[0]
    assert best.method == "full" and best.verdict in ("fits", "tight")
    assert best.workload.grad_checkpointing and best.workload.batch == 1
    assert {"checkpointing", "batch"} <= set(best.changes)
    # What fits as asked is planned as asked: no checkpointing or batch change.
    small = replace(w, context=1024, batch=1, grad_checkpointing=True)
    assert all("batch" not in p.changes for p in plans(small, m))


def test_an_adapter_plan_shares_its_base_as_the_reference(arch):
    # GRPO of Qwen2.5-7B, its reference loaded, on a 48 GB card: a full fine-tune counts a
    # second 14.2 GiB copy; the LoRA plan's reference is its own base with the adapters off
    # (TRL refuses a second copy beside a peft_config unless forced), so it counts none.
    from estimator.planner import plans

    w = Workload(model=arch("Qwen2.5-7B"), task="training", objective="grpo", reference_model=True)
    found = plans(w, machine(gpu="RTX A6000"))
    asked = next(p for p in found if p.kind == "as_asked")
    assert asked.estimate.components.frozen_models == 2 * arch("Qwen2.5-7B").params
    lora = next(p for p in found if p.method == "lora")
    assert lora.workload.reference_model is None
    assert lora.estimate.components.frozen_models == 0


def test_the_zero_stage_the_estimate_assumed_is_in_the_command(arch):
    # A full fine-tune on 8 GPUs with no sharding named is sized as ZeRO-3 (DDP would keep a
    # whole copy on each): its command runs DeepSpeed stage 3, not plain TrainingArguments.
    w = Workload(model=arch("Llama-3.1-8B"), task="training", method="full")
    m = machine(gpu="A100 80GB", gpus=8)
    est = estimate(w, m)
    assert (est.inputs.zero, est.inputs.parallelism) == (0, "zero3")
    assert '"stage":3' in command(est, m) and "deepspeed --num_gpus 8" in command(est, m)
