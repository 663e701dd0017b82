"""Placing a model on several devices: contiguous layer split (transformers device_map="auto",
llama.cpp --split-mode layer) and the layers that fit on the GPUs when the rest is offloaded."""

from __future__ import annotations

from itertools import accumulate


def split_layers(
    layer_bytes: list[int],
    devices: int,
    first: int,
    last: int,
    capacities: tuple[int, ...] = (),
) -> list[range]:
    """Contiguous groups of layers, one per device, where the first device also holds `first`
    (embeddings) and the last `last` (lm_head): the split whose fullest device is emptiest, or
    with `capacities` (different GPUs) whose fullest device relative to its memory is emptiest,
    which is how llama.cpp splits layers in proportion to each GPU's memory (--tensor-split)."""
    if devices <= 1:
        return [range(len(layer_bytes))]
    if capacities and len(set(capacities)) > 1:
        return _split_by_capacity(layer_bytes, first, last, capacities)
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


def _split_by_capacity(
    layer_bytes: list[int], first: int, last: int, capacities: tuple[int, ...]
) -> list[range]:
    """The contiguous split that minimises the largest load / capacity share (the same binary
    search as for equal devices, over a fill ratio in millionths)."""
    devices = len(capacities)

    def assign(ratio: int) -> list[range] | None:
        starts, index = [], 0
        for d, capacity in enumerate(capacities):
            cap = capacity * ratio // 1_000_000
            load = first if d == 0 else 0
            start = index
            while index < len(layer_bytes) and load + layer_bytes[index] <= cap:
                load += layer_bytes[index]
                index += 1
            starts.append(start)
            if d == devices - 1 and load + last > cap:
                return None
        if index < len(layer_bytes):
            return None
        bounds = [*starts, len(layer_bytes)]
        return [range(bounds[i], bounds[i + 1]) for i in range(devices)]

    low, high = 1, 1_000_000
    total = first + sum(layer_bytes) + last
    while assign(high) is None:
        high *= 2
        if high > 1_000_000 * (1 + total):
            break
    while low < high:
        mid = (low + high) // 2
        if assign(mid) is not None:
            high = mid
        else:
            low = mid + 1
    return assign(low) or _assign(layer_bytes, devices, first, last, total)


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
