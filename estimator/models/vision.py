"""Vision towers and projectors of vision-language models: their parameters (counted in the
weights) and the tokens one image takes in the context.

Each tower follows its transformers modeling file:
- SigLIP (Gemma 3; modeling_siglip.py): conv patch embedding with bias, learned positions,
  pre-LayerNorm blocks (biased q/k/v/o and fc1/fc2, two LayerNorms with bias), a post
  LayerNorm; Gemma 3's projector is one matrix and an RMSNorm (modeling_gemma3.py), and every
  image becomes `mm_tokens_per_image` tokens (256 at 896x896).
- Qwen2.5-VL (modeling_qwen2_5_vl.py): a bias-free 3-D patch conv, blocks with two RMSNorms,
  biased fused qkv/proj and a biased gated MLP; the merger's RMSNorm and two biased linears
  over spatial_merge_size² patches. One token per (patch x merge)² pixels: a 1024x1024 image is
  resized to 1036x1036, 37 x 37 = 1,369 tokens, plus its start and end markers.
- Qwen3-VL (modeling_qwen3_vl.py): a biased 3-D patch conv, learned positions
  (`num_position_embeddings`), LayerNorm blocks with biased fused qkv/proj and a biased
  non-gated MLP; a merger (LayerNorm over the tower width, two biased linears over
  spatial_merge_size² patches) and one more merger per `deepstack_visual_indexes` entry, whose
  LayerNorm is over the merged width. One token per (patch x merge)² pixels: a 1024x1024 image
  is 32 x 32 = 1,024 tokens plus its start and end markers.
- Pixtral (Mistral Small 3.1/3.2; modeling_pixtral.py, modeling_mistral3.py): a bias-free patch
  conv, RMSNorm blocks with bias-free attention and a gated MLP; the projector's RMSNorm, patch
  merger and two linears. A 1024x1024 image: 74 x 74 patches merged 2x2, 37 x 37 = 1,369
  tokens plus one break or end token per row.
- Llama 4 (modeling_llama4.py): an unfold patch embedding, class and position embeddings,
  LayerNorm blocks with biased attention and MLP, a pixel-shuffle adapter MLP and a projector
  matrix; a 336x336 tile is 576 patches shuffled to 144 tokens.
- Llama 3.2 Vision (modeling_mllama.py: MllamaVisionModel): a bias-free patch conv, a class
  embedding, gated position embeddings (one table of patches + 1, a tile table per aspect
  ratio id and tile, one gate), gated pre- and post-tile embeddings (one row per aspect ratio
  id and tile, one gate each), LayerNorms before and after, `num_hidden_layers` local and
  `num_global_layers` global blocks with bias-free attention (`attention_heads`), a biased
  GELU MLP and two biased LayerNorms, the global blocks with two scalar gates each; the
  projector is one biased matrix from `vision_output_dim` (the last and the intermediate
  layers' outputs side by side) to the text width. Aspect ratio ids run from 0 (padding) to
  the number of `supported_aspect_ratios`. An image is cut into at most `max_num_tiles`
  tiles of image_size², each (image_size / patch)² + 1 tokens: 4 x 1,601 = 6,404 tokens
  that the text reads through its cross-attention layers, beside one <|image|> token of the
  text context.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .families.common import integer, integers
from .types import Linear


@dataclass(frozen=True, slots=True)
class Tower:
    linears: tuple[Linear, ...]
    other: int
    image_tokens: int
    image_size: str
    # Tokens the text's cross-attention layers keep of one image (Llama 3.2 Vision), 0 where
    # the image tokens sit in the text context itself.
    cross_tokens: int = 0

    @property
    def params(self) -> int:
        return sum(lin.params for lin in self.linears) + self.other


def _blocks(
    w: int, ff: int, layers: int, *, bias: bool, gated: bool, fused_qkv: bool = False
) -> list[Linear]:
    attn = (
        [Linear("vision", "qkv", w, 3 * w, layers, layers, bias)]
        if fused_qkv
        else [Linear("vision", name, w, w, layers, layers, bias) for name in ("q", "k", "v")]
    )
    mlp = [Linear("vision", "gate", w, ff, layers, layers, bias)] if gated else []
    return [
        *attn,
        Linear("vision", "o", w, w, layers, layers, bias),
        *mlp,
        Linear("vision", "up", w, ff, layers, layers, bias),
        Linear("vision", "down", ff, w, layers, layers, bias),
    ]


def _siglip_gemma3(v: Mapping[str, Any], outer: Mapping[str, Any], text_h: int) -> Tower:
    w, ff, L = (
        integer(v, "hidden_size"),
        integer(v, "intermediate_size"),
        integer(v, "num_hidden_layers"),
    )
    patch, size = integer(v, "patch_size"), integer(v, "image_size")
    channels = integer(v, "num_channels", 3)
    positions = (size // patch) ** 2
    other = channels * patch * patch * w + w + positions * w + L * 4 * w + 2 * w
    linears = [
        *_blocks(w, ff, L, bias=True, gated=False),
        Linear("vision", "mm_input_projection", w, text_h, 1, 1),
    ]
    tokens = integer(outer, "mm_tokens_per_image", 256)
    return Tower(tuple(linears), other + w, tokens, f"{size}x{size}")


def _qwen25_vl(v: Mapping[str, Any], outer: Mapping[str, Any], text_h: int) -> Tower:
    w, ff, L = integer(v, "hidden_size"), integer(v, "intermediate_size"), integer(v, "depth")
    patch, merge = integer(v, "patch_size", 14), integer(v, "spatial_merge_size", 2)
    temporal = integer(v, "temporal_patch_size", 2)
    channels = integer(v, "in_chans", integer(v, "in_channels", 3))
    out = integer(v, "out_hidden_size", text_h)
    merged = w * merge * merge
    linears = [
        *_blocks(w, ff, L, bias=True, gated=True, fused_qkv=True),
        Linear("vision", "merger_fc1", merged, merged, 1, 1, True),
        Linear("vision", "merger_fc2", merged, out, 1, 1, True),
    ]
    other = channels * temporal * patch * patch * w + L * 2 * w + w
    side = round(1024 / (patch * merge))
    return Tower(tuple(linears), other, side * side + 2, "1024x1024")


def _qwen3_vl(v: Mapping[str, Any], outer: Mapping[str, Any], text_h: int) -> Tower:
    w, ff, L = integer(v, "hidden_size"), integer(v, "intermediate_size"), integer(v, "depth")
    patch, merge = integer(v, "patch_size", 16), integer(v, "spatial_merge_size", 2)
    temporal = integer(v, "temporal_patch_size", 2)
    channels = integer(v, "in_channels", 3)
    out = integer(v, "out_hidden_size", text_h)
    deepstack = len(integers(v, "deepstack_visual_indexes"))
    merged = w * merge * merge
    mergers = 1 + deepstack
    linears = [
        *_blocks(w, ff, L, bias=True, gated=False, fused_qkv=True),
        Linear("vision", "merger_fc1", merged, merged, mergers, mergers, True),
        Linear("vision", "merger_fc2", merged, out, mergers, mergers, True),
    ]
    positions = integer(v, "num_position_embeddings")
    conv = channels * temporal * patch * patch * w + w
    other = conv + positions * w + L * 4 * w + 2 * w + deepstack * 2 * merged
    side = round(1024 / (patch * merge))
    return Tower(tuple(linears), other, side * side + 2, "1024x1024")


def _pixtral(v: Mapping[str, Any], outer: Mapping[str, Any], text_h: int) -> Tower:
    w, ff, L = (
        integer(v, "hidden_size"),
        integer(v, "intermediate_size"),
        integer(v, "num_hidden_layers"),
    )
    patch = integer(v, "patch_size")
    merge = integer(outer, "spatial_merge_size", 2)
    channels = integer(v, "num_channels", 3)
    bias = bool(outer.get("multimodal_projector_bias", False))
    linears = [
        *_blocks(w, ff, L, bias=False, gated=True),
        Linear("vision", "patch_merger", w * merge * merge, w, 1, 1),
        Linear("vision", "linear_1", w, text_h, 1, 1, bias),
        Linear("vision", "linear_2", text_h, text_h, 1, 1, bias),
    ]
    other = channels * patch * patch * w + w + L * 2 * w + w
    rows = -(-1024 // patch) // merge
    return Tower(tuple(linears), other, rows * rows + rows, "1024x1024")


def _llama4(v: Mapping[str, Any], outer: Mapping[str, Any], text_h: int) -> Tower:
    w, ff, L = (
        integer(v, "hidden_size"),
        integer(v, "intermediate_size"),
        integer(v, "num_hidden_layers"),
    )
    patch, size = integer(v, "patch_size"), integer(v, "image_size")
    channels = integer(v, "num_channels", 3)
    proj_in, proj_out = integer(v, "projector_input_dim"), integer(v, "projector_output_dim")
    shuffle = float(v.get("pixel_shuffle_ratio", 0.5))
    out = integer(v, "vision_output_dim")
    shuffled = int(w / (shuffle * shuffle))
    linears = [
        Linear("vision", "patch_embedding", channels * patch * patch, w, 1, 1),
        *_blocks(w, ff, L, bias=True, gated=False),
        Linear("vision", "adapter_fc1", shuffled, proj_in, 1, 1),
        Linear("vision", "adapter_fc2", proj_in, proj_out, 1, 1),
        Linear("vision", "multi_modal_projector", out, text_h, 1, 1),
    ]
    patches = (size // patch) ** 2
    other = w + (patches + 1) * w + L * 4 * w + 4 * w
    return Tower(tuple(linears), other, round(patches * shuffle * shuffle), f"{size}x{size}")


def _mllama(v: Mapping[str, Any], outer: Mapping[str, Any], text_h: int) -> Tower:
    w, ff = integer(v, "hidden_size"), integer(v, "intermediate_size")
    local, glob = integer(v, "num_hidden_layers"), integer(v, "num_global_layers")
    patch, size = integer(v, "patch_size"), integer(v, "image_size")
    channels = integer(v, "num_channels", 3)
    tiles = integer(v, "max_num_tiles", 4)
    ratios = len(v.get("supported_aspect_ratios") or ()) + 1
    out = integer(v, "vision_output_dim")
    L = local + glob
    linears = [
        Linear("vision", "patch_embedding", channels * patch * patch, w, 1, 1),
        *(Linear("vision", name, w, w, L, L) for name in ("q", "k", "v", "o")),
        Linear("vision", "fc1", w, ff, L, L, True),
        Linear("vision", "fc2", ff, w, L, L, True),
        Linear("vision", "multi_modal_projector", out, text_h, 1, 1, True),
    ]
    patches = (size // patch) ** 2 + 1
    positions = patches * w + ratios * tiles * patches * w + 1
    tile_embeddings = 2 * (ratios * tiles * w + 1)
    other = w + positions + tile_embeddings + 2 * 2 * w + L * 4 * w + glob * 2
    tokens = tiles * patches
    return Tower(tuple(linears), other, tokens, f"{size}x{size}", cross_tokens=tokens)


# The wrapper's model_type -> the tower it carries.
TOWERS = {
    "gemma3": _siglip_gemma3,
    "qwen2_5_vl": _qwen25_vl,
    "qwen3_vl": _qwen3_vl,
    "qwen3_vl_moe": _qwen3_vl,
    "mistral3": _pixtral,
    "llama4": _llama4,
    "mllama": _mllama,
}


def has_tower(raw: Mapping[str, Any]) -> bool:
    return str(raw.get("model_type")) in TOWERS and isinstance(raw.get("vision_config"), Mapping)


def tower(raw: Mapping[str, Any], text_hidden: int) -> Tower | None:
    """The vision tower of a wrapper config, or None when it has none we can count."""
    build = TOWERS.get(str(raw.get("model_type")))
    vision = raw.get("vision_config")
    if build is None or not isinstance(vision, Mapping):
        return None
    return build(vision, raw, text_hidden)
