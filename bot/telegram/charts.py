"""The memory chart of an answered question, drawn off the event loop."""

from __future__ import annotations

import asyncio

from ..conversation.reply import Reply
from ..render import numbers
from ..render.chart import memory_chart


def _draw(reply: Reply) -> bytes | None:
    numbers.UNITS.set(reply.units)  # this thread's copy of the context only
    drawing = reply.drawing()
    if drawing is None:
        return None
    return memory_chart(drawing.estimate, reply.language, drawing.curve)


async def chart(reply: Reply) -> bytes | None:
    """A PNG for answers about one workload; None for questions, inverse answers and classical
    machine learning, which have no single memory breakdown to draw."""
    if not reply.charts or not reply.about_one_workload:
        return None
    return await asyncio.to_thread(_draw, reply)
