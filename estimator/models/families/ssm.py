"""State-space mixer layers (Mamba 1 and Mamba 2) that hybrid models interleave with
attention: their weights, and the fixed state one sequence keeps in each.

Mamba 2 (transformers modeling_mamba2.py / modeling_nemotron_h.py): in_proj h -> 2·d_inner +
2·groups·d_state + heads, a depthwise conv1d over d_inner + 2·groups·d_state channels, per-head
dt_bias, A_log and D, a gated RMSNorm over d_inner, out_proj d_inner -> h. Its state per sequence:
the conv window (kernel - 1 steps of every conv channel) and heads x head_dim x d_state.

Mamba 1 (modeling_jamba.py): in_proj h -> 2·d_inner, conv1d over d_inner, x_proj d_inner ->
dt_rank + 2·d_state, dt_proj dt_rank -> d_inner (biased), A_log d_inner x d_state, D d_inner,
out_proj d_inner -> h; state: the conv window and d_inner x d_state.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..types import Linear


@dataclass(frozen=True, slots=True)
class Mixer:
    linears: list[Linear]
    other: int  # conv weights and biases, dt/A/D vectors, inner norms, for all layers
    state: int  # elements one sequence keeps in one layer


def mamba2(
    h: int,
    layers: int,
    *,
    heads: int,
    head_dim: int,
    d_state: int,
    groups: int,
    kernel: int,
    conv_bias: bool,
    proj_bias: bool,
    out_bias: bool | None = None,
    norm: bool = True,
) -> Mixer:
    """`out_bias` when out_proj's bias has its own flag (Falcon-H1's projectors_bias); `norm`
    False for a mixer without the gated RMSNorm (Falcon-H1's mamba_rms_norm false)."""
    d_inner = heads * head_dim
    conv = d_inner + 2 * groups * d_state
    linears = [
        Linear(
            "attention",
            "in_proj",
            h,
            2 * d_inner + 2 * groups * d_state + heads,
            layers,
            layers,
            proj_bias,
        ),
        Linear(
            "attention",
            "out_proj",
            d_inner,
            h,
            layers,
            layers,
            proj_bias if out_bias is None else out_bias,
        ),
    ]
    per_layer = conv * kernel + (conv if conv_bias else 0) + 3 * heads + (d_inner if norm else 0)
    return Mixer(linears, layers * per_layer, conv * (kernel - 1) + heads * head_dim * d_state)


def mamba1(
    h: int,
    layers: int,
    *,
    d_inner: int,
    d_state: int,
    dt_rank: int,
    kernel: int,
    conv_bias: bool,
    proj_bias: bool,
    inner_norms: bool,
) -> Mixer:
    linears = [
        Linear("attention", "in_proj", h, 2 * d_inner, layers, layers, proj_bias),
        Linear("attention", "x_proj", d_inner, dt_rank + 2 * d_state, layers, layers),
        Linear("attention", "dt_proj", dt_rank, d_inner, layers, layers, True),
        Linear("attention", "out_proj", d_inner, h, layers, layers, proj_bias),
    ]
    per_layer = d_inner * kernel + (d_inner if conv_bias else 0) + d_inner * d_state + d_inner
    if inner_norms:  # Jamba's dt, B and C layernorms
        per_layer += dt_rank + 2 * d_state
    return Mixer(linears, layers * per_layer, d_inner * (kernel - 1) + d_inner * d_state)
