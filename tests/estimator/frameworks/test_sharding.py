"""Sharding backends: FSDP's gathered units, hybrid sharding within a node, FSDP + QLoRA with CPU
offload (Answer.AI's 70B on two 24 GB cards), and what torchtune's recipes do by default."""

import math

import pytest

from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.precision import FORMATS, weight_bytes
from estimator.workload import Workload


def _train(a, gpu="A100 80GB", gpus=1, ram_gb=None, **kw):
    m = machine(gpu=gpu, gpus=gpus, ram_gb=ram_gb)
    return estimate(Workload(model=a, task="training", **kw), m)


def _note(est, key):
    return next(n.params for n in est.steps if n.key == key)


def test_fsdp_full_shard_divides_everything_and_gathers_two_units(arch):
    a = arch("llama 3.1 8b")
    est = _train(a, gpus=4, method="full", engine="fsdp")
    c = est.devices[0].components
    p = a.params
    # Mixed precision under FSDP: the fp32 shards are the masters (4 + 4 + 8 bytes), divided by 4.
    assert c.weights == math.ceil(4 * p / 4)
    assert c.optimizer_states == math.ceil(8 * p / 4) and c.master_weights == 0
    layer = (a.linear_params + a.other_params) // a.num_layers
    root = 2 * (a.embedding_params + a.lm_head_params)
    assert _note(est, "fsdp_shard")["buffers"] == 2 * (2 * layer) + 2 * layer + root
    assert est.inputs.parallelism == "fsdp"


def test_hybrid_sharding_shards_within_a_node(arch):
    a = arch("llama 3.1 8b")
    est = _train(a, gpus=16, method="full", engine="fsdp", distributed="hsdp")
    assert _note(est, "fsdp_shard")["devices"] == 8
    assert est.devices[0].components.optimizer_states == math.ceil(8 * a.params / 8)
    assert _note(est, "interconnect")["nodes"] == 2
    assert est.inputs.parallelism == "hsdp"


def test_fsdp_qlora_70b_on_two_24gb_cards(arch):
    """Answer.AI's FSDP + QLoRA: the sharded 4-bit base does not fit two 24 GB cards at 2,048
    tokens, so its parameters, gradients and optimizer go to CPU RAM; the GPUs keep the gathered
    layers, the root unit and the activations."""
    a = arch("llama 3 70b")
    est = _train(a, gpu="RTX 4090", gpus=2, ram_gb=128, method="qlora")
    assert est.verdict == "offload" and est.inputs.parallelism == "fsdp"
    c = est.devices[0].components
    assert c.weights == 0 and c.optimizer_states == 0
    base = weight_bytes(a, FORMATS["nf4"])
    unit = base.linear // a.num_layers + 2 * a.other_params // a.num_layers
    assert c.overhead == 2 * unit + base.embedding + base.lm_head
    assert est.offload is not None and est.offload.ram_bytes >= base.total
    # Without RAM stated, offload is not assumed: the shards alone do not fit.
    assert _train(a, gpu="RTX 4090", gpus=2, method="qlora").verdict == "does_not_fit"


def test_sharded_qlora_keeps_the_base_in_nf4_without_the_fp32_upcast(arch):
    """TRL skips prepare_model_for_kbit_training for QLoRA under FSDP or ZeRO-3: the norms,
    embeddings and lm_head stay in the 16-bit quant storage. By hand: the whole NF4 base (4-bit
    linears with their scales, 16-bit rest) split over the 2 GPUs, ceil(total / 2) each; a single
    GPU still pays the fp32 upcast of embedding, lm_head and norms (2 more bytes each)."""
    a = arch("llama 3 70b")
    base = weight_bytes(a, FORMATS["nf4"])
    for engine in ("fsdp", "transformers"):
        est = _train(a, gpu="RTX 3090", gpus=2, method="qlora", engine=engine)
        assert est.inputs.parallelism == "fsdp"
        assert est.devices[0].components.weights == math.ceil(base.total / 2)
        assert "kbit_upcast" not in [n.key for n in est.steps]
    zero3 = _train(a, gpus=2, method="qlora", engine="deepspeed", zero=3)
    assert zero3.devices[0].components.weights == math.ceil(base.total / 2)
    single = _train(a, gpu="H200", method="qlora")
    upcast = 2 * (a.embedding_params + a.lm_head_params + a.other_params)
    assert single.components.weights == base.total + upcast


def test_lora_stays_ddp_when_a_replica_fits(arch):
    a = arch("llama 3.1 8b")
    est = _train(a, gpu="RTX 4090", gpus=2, method="qlora")
    assert est.inputs.parallelism == "ddp"


def test_torchtune_single_device_full_steps_in_the_backward_with_paged_states(arch):
    """8B_full_single_device.yaml: PagedAdamW8bit + optimizer_in_bwd: no full set of gradients,
    and the optimizer states live in CUDA managed memory torch's counters do not see."""
    a = arch("llama 3.1 8b")
    est = _train(a, gpu="RTX 4090", method="full", engine="torchtune")
    c = est.components
    assert c.optimizer_states == 2 * a.params and c.master_weights == 0
    assert c.gradients <= 2 * a.lm_head_params  # one parameter's gradient at a time
    d = est.devices[0]
    assert d.allocated_bytes == c.total - c.optimizer_states


def test_torchtune_distributed_lora_shards_with_fsdp(arch):
    est = _train(arch("llama 3.1 8b"), gpus=2, method="lora", engine="torchtune")
    assert est.inputs.parallelism == "fsdp"


@pytest.mark.parametrize("gpus", [2, 8])
def test_full_fine_tune_on_several_gpus_is_never_a_replica(arch, gpus):
    a = arch("qwen2.5 7b")
    for engine in ("transformers", "axolotl", "llama-factory"):
        est = _train(a, gpus=gpus, method="full", engine=engine)
        assert est.inputs.parallelism == "zero3"


def test_the_answer_says_how_the_gpus_share_the_job(arch):
    """A full fine-tune on 8 GPUs is sharded (ZeRO-3 through DeepSpeed for the Hugging Face
    family), LoRA runs as DDP, a 70B QLoRA whose replica does not fit is sharded, and an asked
    backend is no assumption."""
    a = arch("llama 3.1 8b")

    def assumed(est):
        return {n.key: n.params for n in est.assumptions if n.key.startswith("training_")}

    full = assumed(_train(a, gpus=8, method="full"))
    assert full == {"training_sharded": {"parallelism": "zero3", "devices": 8}}
    assert assumed(_train(a, gpus=2, method="lora")) == {
        "training_ddp": {"parallelism": "ddp", "devices": 2}
    }
    big = assumed(_train(arch("llama 3.1 70b"), gpu="RTX 3090", gpus=2, method="qlora"))
    assert big == {"training_sharded_replica": {"parallelism": "fsdp", "devices": 2}}
    assert assumed(_train(a, gpus=8, method="full", zero=3)) == {}
    assert assumed(_train(a, gpus=2, method="qlora", engine="fsdp")) == {}
