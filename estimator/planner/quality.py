"""How much of the model's quality a weight format keeps, as the planner ranks it.

Formats are ranked by their nominal bits per weight, in whole bits: the published checkpoint's
own format (16-bit, gpt-oss's MXFP4, DeepSeek's block FP8) keeps everything; 8-bit formats are
close to lossless; 4-bit is the usual sweet spot; below 4 bits quality drops noticeably
(Dettmers & Zettlemoyer, "The case for 4-bit precision: k-bit Inference Scaling Laws",
arXiv:2212.09720: 4-bit gives the best accuracy for the memory, and 3-bit and below lose
zero-shot accuracy; llama.cpp's quantize README lists Q3_K and Q2_K with several times the
perplexity increase of Q4_K_M on Llama 3.1 8B).
"""

from __future__ import annotations

import re

from ..models.types import Architecture
from ..precision import WeightFormat

LOW_BITS = 4  # formats below this many bits cost noticeable quality
# Dettmers & Zettlemoyer find 4 bits the accuracy sweet spot and 3 bits and below losing
# accuracy; llama.cpp's quantize README tabulates the perplexity per format. Quoted in answers
# of either language, so the citation alone.
LOW_BITS_SOURCE = "Dettmers & Zettlemoyer, arXiv:2212.09720; llama.cpp tools/quantize/README.md"
# Under 2 bits per weight (IQ1_S, IQ1_M) a format is "extremely low quality, not recommended"
# (Hugging Face Hub docs, docs/hub/gguf.md, its table of quantization types).
UNUSABLE_BITS = 2.0
UNUSABLE_SOURCE = "Hugging Face Hub docs, GGUF quantization types"
_GGUF_BITS = re.compile(r"^i?q(\d)")


def quality_bits(fmt: WeightFormat, arch: Architecture) -> float:
    """Whole bits per weight as quality goes (16 for the checkpoint's own format)."""
    return 16 if fmt.name == arch.checkpoint_precision else nominal_bits(fmt)


def nominal_bits(fmt: WeightFormat) -> float:
    """Whole bits per weight a format is named for (Q3_K_M: 3, though it averages 3.9)."""
    if fmt.kind == "float":
        return 16
    if fmt.gguf:
        match = _GGUF_BITS.match(fmt.name)
        return float(match.group(1)) if match else 16
    return float(int(fmt.bits))


def low_bits(fmt: WeightFormat, arch: Architecture) -> bool:
    return quality_bits(fmt, arch) < LOW_BITS
