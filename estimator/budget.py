"""Which card a budget buys: "what GPU for 1000 euro", "best GPU under $2000 for Llama 3 70B".

For running models memory decides what fits at all, so the card with the most memory the budget
buys new is the practitioner's pick; among equal memory an NVIDIA card (every engine and
quantization library here runs on CUDA), then the fastest memory, then the lower price.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cost import card_price
from .hardware.catalog import gpus
from .hardware.types import Gpu

# Cards of the catalog's last four launch years are the ones still sold new: NVIDIA's and AMD's
# lines keep about two generations on sale, each about two years (GeForce RTX 30 in 2020-21,
# 40 in 2022-23, 50 in 2025; Radeon RX 7000 in 2022-23, 9000 in 2025).
RECENT_YEARS = 4


@dataclass(frozen=True, slots=True)
class Pick:
    gpu: Gpu
    usd: float  # the launch price, or the middle of an unverified street price
    verified: bool  # a launch price with a source


# Modules on a vendor's baseboard (NVIDIA SXM, the OCP Accelerator Module of AMD's Instinct
# MI300-series) and superchips are sold as whole 4- or 8-GPU servers, not as one card.
SERVER_ONLY = frozenset({"sxm", "oam", "superchip"})


def _on_sale(laptops: bool) -> list[Pick]:
    """Cards one buys on their own (not an edge module, unified memory, a two-die board or a
    server's module) with a price, launched in the catalog's recent years."""
    cards = [
        g
        for g in gpus()
        if g.discrete and g.dies == 1 and g.laptop == laptops and g.form_factor not in SERVER_ONLY
    ]
    newest = max((g.launch_year for g in cards if g.launch_year), default=0)
    out = []
    for g in cards:
        price = card_price(g)
        if price is not None and g.launch_year and g.launch_year > newest - RECENT_YEARS:
            out.append(Pick(g, *price))
    return out


def best_card(budget_usd: float, laptops: bool = False) -> Pick | None:
    """The card with the most memory `budget_usd` buys, None when it buys none."""
    within = [p for p in _on_sale(laptops) if p.usd <= budget_usd]
    if not within:
        return None
    return min(
        within,
        key=lambda p: (
            -p.gpu.memory_gib,
            p.gpu.vendor != "NVIDIA",
            -(p.gpu.bandwidth_gbs or 0),
            p.usd,
        ),
    )


def cheapest_card(laptops: bool = False) -> Pick | None:
    """The lowest-priced card on sale: what a budget below every card is told."""
    return min(_on_sale(laptops), key=lambda p: p.usd, default=None)
