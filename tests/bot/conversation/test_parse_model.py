"""A catalog name followed by a word for another model of its family is not that model."""

import pytest

from bot.conversation.parse_model import catalog_model


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # Qwen2.5-Max (not open) is not Qwen2.5: answered as unknown, not sized as a Qwen2.5.
        ("qwen 2.5 max", "qwen 2.5 max"),
        ("gemma 3 ultra on a 4090", "gemma 3 ultra"),
        # Command R+ (104B) is its own model, also written with a plus sign.
        ("command r plus on 2x a6000", "Command-R-Plus"),
        ("command-r+ on 2x a6000", "Command-R-Plus"),
        # The word is part of the catalog name: the catalog model.
        ("glm 4.5 air on 2x3090", "GLM-4.5-Air"),
        ("phi 4 mini on a laptop", "Phi-4-mini"),
        ("qwen2.5 coder 32b on a 4090", "Qwen2.5-Coder-32B"),
        # A family's name with a size the catalog lacks is that unknown model, not another size.
        ("olmo 2 1b on a pi", "olmo 2 1b"),
        ("starcoder2 15b op een 4070", "starcoder2 15b"),
        ("granite 4 h small on a 4090", "granite 4 h small"),
        # A close spelling of the same size is still found.
        ("lama 3 8b on a 3060", "Llama-3-8B"),
        ("deepseek r1 70b on 2x3090", "DeepSeek-R1-Distill-Llama-70B"),
        ("mistrall 7b on 8x h200", "Mistral-7B-v0.3"),
        # British "distil", a decimal comma in the version: the model, not DeepSeek-R1 (671B)
        # or Qwen2-57B-A14B.
        ("deepseek r1 distil qwen 14b in q4 op een rx 7900 xtx", "DeepSeek-R1-Distill-Qwen-14B"),
        ("grpo on qwen 2,5 7b with trl", "Qwen2.5-7B"),
        # Fillers are no other model.
        ("llama 3.1 8b instruct on a 3060", "Llama-3.1-8B"),
        ("command r on a 4090", "Command-R-v01"),
    ],
)
def test_variant_words(text, named):
    assert catalog_model(text) == named


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("hoi! kan ik qwen2.5:14b draaien op mijn 3060 12gb", "qwen2.5:14b"),
        ("qwen2.5:14b-instruct-q8_0 on a 4090", "qwen2.5:14b-instruct-q8_0"),
        ("gemma3:27b op 2x 3060", "gemma3:27b"),
        # A time or a ratio is no tag.
        ("llama 8b at 12:30 on a 3060", None),
        ("ratio 16:9 llama 8b", None),
    ],
)
def test_an_ollama_tag_is_kept_as_written(text, tag):
    from bot.conversation.parse_model import ollama_tag

    assert ollama_tag(text) == tag
