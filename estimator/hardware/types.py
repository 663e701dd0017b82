"""Hardware as the estimator sees it: catalog entries and the machine a question is about."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..result import Note
from ..vocabulary import GIB, DeviceKind


@dataclass(frozen=True, slots=True)
class Gpu:
    name: str
    vendor: str
    segment: str  # consumer, workstation, datacenter
    laptop: bool
    memory_gib: float
    bandwidth_gbs: float | None
    tflops_bf16: float | None  # dense tensor, fp32 accumulate
    tflops_fp16acc: float | None
    tflops_fp32: float | None
    tflops_fp8: float | None
    fp8: bool
    bf16: bool
    flash_attention2: str  # yes, no, unlisted
    compute_capability: str
    tdp_w: float | None
    launch_year: int | None
    launch_price_usd: float | None
    price_unverified_usd: str | None
    nvlink: bool  # a GPU-to-GPU link beside PCIe: NVLink, or Infinity Fabric (MI300X, MI325X)
    source: str
    notes: str
    # Short names people use beyond what the name gives ("GB10" for the DGX Spark).
    aliases: tuple[str, ...] = ()
    form_factor: str | None = None  # sxm, pcie, nvl, superchip: what tells variants apart
    # What the GPU can allocate when that is less than `memory_gib`: ECC on GDDR cards (a T4
    # shows 15 of its 16 GiB), or the share of a unified memory the GPU may take.
    visible_memory_gib: float | None = None
    unified: bool = False  # memory shared with the CPU and the operating system
    # GPUs the board is to software: an MI250X is two GCDs of 64 GB each (AMD CDNA 2
    # white paper; rocm-smi lists two devices), so no one device holds its 128 GB.
    dies: int = 1

    @property
    def memory_bytes(self) -> int:
        """The memory an estimate may plan with: the visible memory where it is less."""
        return round((self.visible_memory_gib or self.memory_gib) * GIB)

    @property
    def discrete(self) -> bool:
        """A card of its own (not an edge module or memory shared with the CPU)."""
        return not self.unified and self.segment != "edge"

    @property
    def drives_display(self) -> bool:
        """GeForce and Radeon/Arc consumer cards usually drive the desktop too."""
        return self.segment == "consumer"


@dataclass(frozen=True, slots=True)
class AppleChip:
    chip: str
    variant: str
    year: int
    max_memory_gb: int
    memory_options_gb: tuple[int, ...]
    bandwidth_gbs: float
    gpu_tflops_fp32: tuple[float, float]  # fewest and most GPU cores of the variant
    source: str
    notes: str


@dataclass(frozen=True, slots=True)
class CpuPlatform:
    """A CPU memory system: what bounds CPU decode speed. A `device` (a single-board computer,
    a phone) also fixes the RAM it comes with."""

    name: str
    platforms: str
    bandwidth_gbs: float
    tflops_fp32: float  # derived peak for a typical CPU of the platform
    source: str
    notes: str
    aliases: tuple[str, ...] = ()
    channels: int | None = None  # 64-bit memory channels (all sockets)
    sockets: int = 1
    device: bool = False
    ram_options_gb: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class CloudInstance:
    provider: str
    instance: str
    gpu: str  # catalog GPU name
    gpu_count: int
    ram_gb: float | None
    usd_per_hour: float
    price_date: str
    source: str
    notes: str | None


@dataclass(frozen=True, slots=True)
class Machine:
    """The hardware one estimate runs on: `count` GPUs (or an Apple chip, or a CPU) plus RAM.

    `device_bytes` is the memory of one device: VRAM per GPU, unified memory for Apple, RAM for a
    CPU-only machine. `ram_bytes` is host RAM available for offload (None when unknown).

    A machine with different GPUs ("a 4090 plus a 3090") lists every card in `cards`, largest
    first; `gpu`, `device_bytes` and `count` then describe the first card and the number of
    cards. `cards` is empty when all `count` GPUs are the same `gpu`.
    """

    kind: DeviceKind
    name: str
    device_bytes: int
    count: int = 1
    ram_bytes: int | None = None
    gpu: Gpu | None = None
    apple: AppleChip | None = None
    cpu: CpuPlatform | None = None
    from_catalog: bool = True
    cards: tuple[Gpu, ...] = ()
    # What reading the hardware assumed (a bare "H100" is the SXM board): an explanation, not
    # part of what the machine is, so it takes no part in comparing or hashing machines.
    notes: tuple[Note, ...] = field(default=(), compare=False)

    @property
    def mixed(self) -> bool:
        return len({c.name for c in self.cards}) > 1

    @property
    def device_capacities(self) -> tuple[int, ...]:
        """Physical memory of each device, in device order."""
        if self.cards:
            return tuple(c.memory_bytes for c in self.cards)
        return (self.device_bytes,) * (self.count if self.kind == "gpu" else 1)

    @property
    def boards(self) -> tuple[Gpu, ...]:
        """Every GPU of the machine, one entry per card (empty when it has no catalog GPU)."""
        if self.cards:
            return self.cards
        return (self.gpu,) * self.count if self.kind == "gpu" and self.gpu is not None else ()

    def more_of_first(self, count: int) -> Machine:
        """`count` GPUs like the first card: how many GPUs "of the user's kind" a plan adds. A
        mixed set's name ("A + B") and cards no longer describe it."""
        name = self.gpu.name if self.gpu is not None else self.name
        return replace(self, name=name, count=count, cards=())
