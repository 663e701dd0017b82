"""Placing a model on several devices: contiguous layer split (transformers device_map="auto",
llama.cpp --split-mode layer) and the layers that fit on the GPUs when the rest is offloaded."""

from __future__ import annotations

from itertools import accumulate


def split_layers(layer_bytes: list[int], devices: int, first: int, last: int) -> list[range]:
    """Contiguous groups of layers, one per device, where the first device also holds `first`
    (embeddings) and the last `last` (lm_head): the split whose fullest device is emptiest."""
    if devices <= 1:
        return [range(len(layer_bytes))]
    prefix = [0, *accumulate(layer_bytes)]
    low = max([*layer_bytes, first, last])
    high = first + prefix[-1] + last
    while low < high:
        mid = (low + high) // 2
        if _largest(_assign(layer_bytes, devices, first, last, mid), prefix, first, last) <= mid:
            high = mid
        else:
            low = mid + 1
    return _assign(layer_bytes, devices, first, last, low)


def _assign(layer_bytes: list[int], devices: int, first: int, last: int, cap: int) -> list[range]:
    starts = [0]
    load = first
    for i, size in enumerate(layer_bytes):
        if load + size > cap and len(starts) < devices and i > starts[-1]:
            starts.append(i)
            load = 0
        load += size
    starts += [len(layer_bytes)] * (devices - len(starts))
    bounds = [*starts, len(layer_bytes)]
    return [range(bounds[i], bounds[i + 1]) for i in range(devices)]


def _largest(groups: list[range], prefix: list[int], first: int, last: int) -> int:
    loads = [prefix[group.stop] - prefix[group.start] for group in groups]
    loads[0] += first
    loads[-1] += last
    return max(loads)


def gpu_layers_that_fit(layer_bytes: list[int], budget: int) -> int:
    """How many of the last layers fit in `budget` bytes (llama.cpp's -ngl offloads from the end)."""
    used = 0
    count = 0
    for size in reversed(layer_bytes):
        if used + size > budget:
            break
        used += size
        count += 1
    return count
