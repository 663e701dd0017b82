"""Memory against context length: how far the context can grow before the KV cache pushes a
workload out of memory (what the chart's second panel and the context refinements show)."""

from __future__ import annotations

from dataclasses import replace

from .errors import EstimatorError
from .estimate import estimate
from .hardware.types import Machine
from .models import rope
from .vocabulary import ASSUMED_MAX_CONTEXT
from .workload import Workload


def context_curve(
    workload: Workload, machine: Machine | None, points: int = 12, start: int = 1024
) -> list[tuple[int, int]]:
    """(context, bytes on the fullest device) at start, 2x start, 4x start, ... (at most `points`
    of them), ending at the model's maximum context: how far the context can grow before the
    KV cache pushes the job out of memory. Contexts the estimator rejects are left out."""
    limit = rope.reach(workload.model, workload.context or 0) or ASSUMED_MAX_CONTEXT
    contexts = [start << i for i in range(points) if start << i <= limit]
    if limit not in contexts and len(contexts) < points:
        contexts.append(limit)
    curve = []
    for context in contexts:
        try:
            est = estimate(replace(workload, context=context), machine)
        except EstimatorError:
            continue
        curve.append((context, est.per_device_bytes))
    return curve
