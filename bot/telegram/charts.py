"""The memory chart of an answered question, drawn off the event loop."""

from __future__ import annotations

import asyncio

from estimator.errors import EstimatorError
from estimator.estimate import estimate

from ..conversation.answer import machine, workload
from ..conversation.reply import Reply
from ..render import numbers
from ..render.chart import context_curve, memory_chart


def _draw(reply: Reply) -> bytes | None:
    draft = reply.parsed
    numbers.UNITS.set(reply.units)  # this thread's copy of the context only
    try:
        work, _ = workload(draft)
        box = machine(draft)
        est = estimate(work, box)
        curve = context_curve(work, box) if work.task == "inference" else None
    except EstimatorError:
        return None
    return memory_chart(est, reply.language, curve)


async def chart(reply: Reply) -> bytes | None:
    """A PNG for answers about one workload; None for questions, inverse answers and classical
    machine learning, which have no single memory breakdown to draw."""
    if not reply.charts or not reply.about_one_workload:
        return None
    return await asyncio.to_thread(_draw, reply)
