"""The FSDP backend (PyTorch FullyShardedDataParallel, FSDP1 through accelerate and FSDP2's
fully_shard in torchtune): what each GPU holds besides its shard.

With the transformer auto-wrap policy every decoder layer is one unit. A unit's parameters are
all-gathered in 16 bits for its forward and again for its backward, where the default
BACKWARD_PRE prefetch gathers the next unit while the current one runs, and its gradients exist
unsharded until they are reduce-scattered: two units of 16-bit parameters and one of 16-bit
gradients (torch.distributed.fsdp docs, BackwardPrefetch.BACKWARD_PRE: "the current set of
parameters and the next set"). The root unit (embeddings, lm_head, final norm) is not resharded
after the forward (FSDP2 fully_shard: "the root FSDP state has its value specially set to False"),
so its 16-bit parameters stay gathered through the step.

Hybrid sharding (HYBRID_SHARD / HSDP) shards within a node and replicates across nodes.
CPUOffload(offload_params=True) keeps the parameter shards, their gradients and the optimizer
step on the CPU; the GPU holds the gathered units.
Answer.AI's FSDP + QLoRA (fsdp_qlora, March 2024) shards the 4-bit weights the same way, stored
as bf16 so FSDP can flatten them (bnb_4bit_quant_storage), and gathers them per layer.
"""

from __future__ import annotations

UNIT_PARAM_COPIES = 2  # the unit running and the one prefetched
UNIT_GRAD_COPIES = 1


def buffer_bytes(unit_param_bytes: int, unit_grad_bytes: int, root_bytes: int) -> int:
    """Gathered parameters and unsharded gradients one GPU holds at the backward's peak."""
    return UNIT_PARAM_COPIES * unit_param_bytes + UNIT_GRAD_COPIES * unit_grad_bytes + root_bytes
