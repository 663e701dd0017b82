"""Hub lookups against a loopback fake Hub: configs, the Hub's safetensors counts, 404s,
gated repositories, timeouts and an unreachable Hub, each failure remembered."""

import time

import pytest

from bot.model_source import Hub, needs_download, resolve_model
from bot.model_source.limiter import HubLimiter
from bot.render.errors import message
from estimator.errors import EstimatorError
from tests.bot.model_source.fake_hub import FakeHub, running

TINY = {
    "model_type": "llama",
    "hidden_size": 256,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "intermediate_size": 512,
    "vocab_size": 1000,
    "tie_word_embeddings": False,
}
# 2 x 1000 x 256 embeddings + 2 layers of (2 x 256² + 2 x 256 x 128 + 3 x 256 x 512 + 2 x 256) + 256
TINY_PARAMS = 2 * 1000 * 256 + 2 * (2 * 256 * 256 + 2 * 256 * 128 + 3 * 256 * 512 + 512) + 256


@pytest.fixture
def hub():
    fake = FakeHub()
    fake.configs["someone/tiny"] = TINY
    fake.safetensors["someone/tiny"] = {"BF16": TINY_PARAMS}
    fake.configs["someone/odd"] = {**TINY, "model_type": "brand_new"}
    with running(fake):
        yield fake


def test_a_hub_config_and_the_hubs_own_parameter_count(hub):
    client = Hub(hub.url, token="")
    choice = resolve_model("someone/tiny", client=client)
    assert choice.architecture.params == TINY_PARAMS
    assert choice.architecture.measured_bytes == 2 * TINY_PARAMS
    assert [n.key for n in choice.notes] == ["hub_model", "weights_from_headers"]
    assert choice.notes[1].params == {
        "source": "safetensors",
        "exact_params": TINY_PARAMS,
        "bytes": 2 * TINY_PARAMS,
    }
    resolve_model("someone/tiny", client=client)
    assert client.requests == 2  # config and counts, once each


def test_an_unknown_model_type_is_answered_as_generic(hub):
    arch = resolve_model("someone/odd", client=Hub(hub.url, token="")).architecture
    assert arch.generic and "generic_architecture" in arch.notes


def test_a_missing_repository_is_asked_once(hub):
    client = Hub(hub.url, token="")
    for _ in range(10):
        with pytest.raises(EstimatorError) as e:
            resolve_model("someone/missing-7b", client=client)
        assert e.value.code == "unknown_model"
    assert client.requests == 1


def test_a_gated_repository_says_so(hub):
    hub.gated.add("meta-llama/secret")
    with pytest.raises(EstimatorError) as e:
        resolve_model("meta-llama/secret", client=Hub(hub.url, token=""))
    assert e.value.code == "hub_gated"


def test_a_hub_that_does_not_answer_costs_one_timeout_and_says_so(hub):
    hub.hang.add("someone/slow-qwen2.5-7b")
    client = Hub(hub.url, token="", timeout_s=0.3)
    start = time.monotonic()
    with pytest.raises(EstimatorError) as e:
        resolve_model("someone/slow-qwen2.5-7b", client=client)
    assert time.monotonic() - start < 1.5
    assert e.value.code == "hub_unreachable"
    assert "Qwen2.5-7B" in e.value.params["suggestions"]
    text = message(e.value, "en")
    assert text.startswith("the Hugging Face Hub cannot be reached") and "Qwen2.5-7B" in text
    assert message(e.value, "nl").startswith("de Hugging Face Hub is niet bereikbaar")
    start = time.monotonic()
    with pytest.raises(EstimatorError):
        resolve_model("someone/slow-qwen2.5-7b", client=client)
    assert time.monotonic() - start < 0.1 and client.requests == 1  # remembered


def test_a_closed_port_is_unreachable_at_once():
    client = Hub("http://127.0.0.1:9", token="")
    start = time.monotonic()
    with pytest.raises(EstimatorError) as e:
        resolve_model("someone/anything", client=client)
    assert e.value.code == "hub_unreachable" and time.monotonic() - start < 3


@pytest.mark.parametrize("text", ["tokens/s", "24/7", "1/2", "./x/config.json", "a b/c"])
def test_only_org_name_ids_go_to_the_hub(text):
    assert not needs_download(text)


def test_catalog_ids_never_go_to_the_hub():
    assert not needs_download("Qwen/Qwen2.5-7B-Instruct-AWQ")
    assert needs_download("someone/their-finetune")
    # A GGUF repository's own files are read there, even when its name maps to the catalog.
    assert needs_download("bartowski/Qwen2.5-Coder-32B-Instruct-GGUF")


def test_the_limiter_allows_a_burst_then_a_steady_rate():
    limiter = HubLimiter(per_minute=6, burst=3)
    assert [limiter.allow("u1", now=0) for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("u2", now=0)  # per user
    assert not limiter.allow("u1", now=5) and limiter.allow("u1", now=10.1)


def test_a_user_past_the_limit_is_told_so_before_any_request(hub):
    client = Hub(hub.url, token="")
    limiter = HubLimiter(per_minute=1, burst=1)
    resolve_model("someone/tiny", client=client, hub_allowed=lambda: limiter.allow("u"))
    with pytest.raises(EstimatorError) as e:
        resolve_model("someone/odd", client=client, hub_allowed=lambda: limiter.allow("u"))
    assert e.value.code == "hub_rate_limited" and client.requests == 2
    assert message(e.value, "nl").startswith("te veel opzoekingen")
    # The catalog needs no Hub, and no allowance.
    assert resolve_model("Qwen/Qwen2.5-7B-Instruct", hub_allowed=lambda: False).architecture
