"""Generated chat text and config.json files through the whole service on a real database: every
message gets a reply (never an exception) and none holds the event loop for long.

What the event loop spends is measured as CPU time of the loop's thread in each of its steps
(a callback or a task's step between two awaits), not as wall time: wall time on a shared
two-core machine counts other processes and other threads holding the GIL, CPU time only the
step's own work. A message whose steps add up to MESSAGE_LIMIT_S would delay every other chat by
as much; the answer's own work runs in worker threads (bot/conversation/time_budget.py)."""

import asyncio
import gc
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.conversation.reply import Reply
from bot.conversation.service import Conversation
from bot.model_source import Hub, hub
from tests.bot.conversation.talk import message

MESSAGE_LIMIT_S = 0.1
# Derandomized: the same examples on every run and machine; no example database.
SUITE = dict(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
WORDS = [
    *("can I run", "fine-tune", "train", "on", "a", "an", "with", "and", "or", "vs", "my"),
    *("kan ik", "draaien", "op", "met", "mijn", "trainen", "en", "of", "grootste model"),
    *("llama 3 8b", "Qwen2.5-14B", "mixtral", "70B", "7b", "405B", "someone/model", "it"),
    *("4090", "RTX 3090", "H100", "2x A100", "M3 Max 64GB", "mac", "laptop", "CPU only"),
    *("GB", "GiB", "RAM", "VRAM", "k context", "tokens", "users", "tokens/s", "int4", "fp8"),
    *("QLoRA", "LoRA", "vLLM", "ollama", "batch", "ZeRO-3", "DPO", "how many", "biggest"),
    *("99999x H100", "1000000k context", "-24GB", "10^12 users", "1e308", "NaN", "Infinity"),
    *("0", "-1", "1.5", "½", "²", "٣", "x", "^", "/", "?", "!", "/start", "details", "2"),
    *("\x00", "\x1b[31m", "\u202e", "\ud800", "\udfff", "😀", "\n", "\t", "　", "ß"),
]
NUMBERS = st.one_of(
    st.integers(-(10**400), 10**400).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.integers(0, 10**6).map(lambda n: f"{n}k"),
)
CHAT_TEXT = st.one_of(
    st.lists(st.one_of(st.sampled_from(WORDS), NUMBERS), min_size=1, max_size=14).map(" ".join),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=60),
    st.text(alphabet="0123456789 .,-+eE^kKmMbBxX/", max_size=400),
)


@contextmanager
def loop_steps() -> Iterator[list[float]]:
    """The CPU time of each event-loop step taken inside the block."""
    spent: list[float] = []
    original = asyncio.events.Handle._run

    def timed(handle: asyncio.Handle) -> None:
        start = time.thread_time()
        try:
            original(handle)
        finally:
            spent.append(time.thread_time() - start)

    asyncio.events.Handle._run = timed  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        asyncio.events.Handle._run = original  # type: ignore[method-assign]


@pytest.fixture
def closed_hub(monkeypatch):
    """An id shaped like a Hub repository meets a closed port: no network in tests."""
    monkeypatch.setattr(hub, "_default", Hub("http://127.0.0.1:9", token=""))


@pytest.fixture
async def bot(storage, closed_hub):
    conversation = Conversation(storage, local_files=True)
    await conversation.handle(message("hello"))  # pays the first use's imports and caches
    # What the earlier tests of this process left behind is frozen: a full collection of it,
    # 0.1 s or more, would otherwise land on whichever step allocates next, none of ours.
    gc.collect()
    gc.freeze()
    yield conversation
    gc.unfreeze()


@settings(max_examples=400, **SUITE)
@given(texts=st.lists(CHAT_TEXT, min_size=1, max_size=3))
async def test_any_chat_text_gets_a_reply_and_spares_the_loop(bot, texts):
    for text in texts:
        with loop_steps() as spent:
            assert isinstance(await bot.handle(message(text)), Reply)
        assert sum(spent) < MESSAGE_LIMIT_S


CONFIG = {
    "model_type": "llama",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "vocab_size": 128256,
    "max_position_embeddings": 131072,
    "torch_dtype": "bfloat16",
}
ODD_VALUES = st.one_of(
    st.integers(-(10**30), 10**30),
    st.sampled_from([0, 1, 2**31, 2**63, 10**7, 10**12, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 64), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
FIELDS = st.sampled_from(
    [
        *CONFIG,
        *("num_local_experts", "num_experts_per_tok", "head_dim", "tie_word_embeddings"),
        *(
            "sliding_window",
            "rope_scaling",
            "quantization_config",
            "text_config",
            "n_routed_experts",
        ),
    ]
)
CONFIGS = st.dictionaries(FIELDS, ODD_VALUES, min_size=1, max_size=4).map(
    lambda changed: {**CONFIG, **changed}
)


@settings(max_examples=200, **SUITE)
@given(config=CONFIGS, question=st.sampled_from(["can I run {} on a 4090?", "fine-tune {}"]))
async def test_any_config_json_gets_a_reply_and_spares_the_loop(
    bot, tmp_path_factory, config, question
):
    path: Path = tmp_path_factory.mktemp("model") / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    with loop_steps() as spent:
        reply = await bot.handle(message(question.format(path), user="configs"))
    assert isinstance(reply, Reply)
    assert sum(spent) < MESSAGE_LIMIT_S
