"""Placing a model on several devices: contiguous layer split (transformers device_map="auto",
llama.cpp --split-mode layer) and the layers that fit on the GPUs when the rest is offloaded."""

from __future__ import annotations

from bisect import bisect_right
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
    prefix = _prefix(layer_bytes)
    low = max([*layer_bytes, first, last])
    if devices == 2:
        # The best cut directly: around the split point where the two loads cross.
        total, count = prefix[-1], len(layer_bytes)
        cut = bisect_right([2 * p + first - total - last for p in prefix], 0)
        best = min(
            max(first + prefix[k], total - prefix[k] + last)
            for k in {min(max(c, 1), count) for c in (cut - 1, cut, cut + 1)}
        )
        return _assign(prefix, devices, first, max(low, best))
    high = first + prefix[-1] + last
    while low < high:
        mid = (low + high) // 2
        if _largest(_assign(prefix, devices, first, mid), prefix, first, last) <= mid:
            high = mid
        else:
            low = mid + 1
    return _assign(prefix, devices, first, low)


def _assign(prefix: list[int], devices: int, first: int, cap: int) -> list[range]:
    """Greedy groups under `cap` over layers with prefix sums `prefix`: each device takes layers
    while its load stays within the cap (at least one layer each), the last the rest."""
    count = len(prefix) - 1
    bounds = [0]
    load = first
    for _ in range(devices - 1):
        start = bounds[-1]
        if start >= count:
            bounds.append(count)
            continue
        end = bisect_right(prefix, cap - load + prefix[start]) - 1
        bounds.append(min(count, max(end, start + 1)))
        load = 0
    bounds.append(count)
    return [range(bounds[i], bounds[i + 1]) for i in range(devices)]


def _prefix(layer_bytes: list[int]) -> list[int]:
    return [0, *accumulate(layer_bytes)]


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

    prefix = _prefix(layer_bytes)
    count = len(layer_bytes)

    def assign(ratio: int) -> list[range] | None:
        bounds = [0]
        for d, capacity in enumerate(capacities):
            cap = capacity * ratio // 1_000_000 - (first if d == 0 else 0)
            start = bounds[-1]
            end = max(start, bisect_right(prefix, cap + prefix[start]) - 1) if cap >= 0 else start
            bounds.append(min(count, end))
        if bounds[-1] < count:
            return None
        if prefix[count] - prefix[bounds[-2]] + last > capacities[-1] * ratio // 1_000_000:
            return None
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
    return assign(low) or _assign(prefix, devices, first, total)


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
