"""Who is asking, as far as the question tells: what gates the advice to their situation (an
owner is not told to buy, a single-GPU owner not to split over eight GPUs unless they ask)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Situation:
    # The hardware is theirs (said so, or their saved profile): advise on using it, not buying.
    owns_hardware: bool = False
    # Renting is an option they would take (not "local only", not offline).
    cloud_allowed: bool = True
    # They asked about a number of GPUs ("on 2 GPUs", "how many GPUs"): more GPUs are in scope.
    asked_gpu_count: bool = False
    # The hardware is a rented or hosted machine (a cloud instance, Colab): no power bill or wall
    # circuit of theirs to advise on.
    rented: bool = False

    def fields(self) -> dict[str, Any]:
        return {
            "owns": int(self.owns_hardware),
            "cloud_ok": int(self.cloud_allowed),
            "asked_gpus": int(self.asked_gpu_count),
            "rented": int(self.rented),
        }
