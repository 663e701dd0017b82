"""GGUF header bytes written by hand after llama.cpp's docs/gguf.md: read whole, None for
every shorter prefix (a range read that needs more), in either byte order."""

import struct

import pytest

from estimator.errors import EstimatorError
from estimator.models import headers


def _gguf(order: str) -> bytes:
    def string(text: str) -> bytes:
        return struct.pack(order + "Q", len(text)) + text.encode()

    out = b"GGUF" + struct.pack(order + "IQQ", 3, 1, 3)
    out += string("llama.block_count") + struct.pack(order + "II", 4, 32)
    out += string("general.name") + struct.pack(order + "I", 8) + string("Tiny")
    # An array longer than MAX_KEPT_ARRAY is given as its length.
    n = headers.MAX_KEPT_ARRAY + 1
    out += string("tokenizer.ggml.scores") + struct.pack(order + "IIQ", 9, 6, n) + b"\0" * 4 * n
    # A 4096 x 32000 Q4_K tensor (ggml type 12) at offset 0.
    out += string("token_embd.weight") + struct.pack(order + "IQQIQ", 2, 4096, 32000, 12, 0)
    return out


@pytest.mark.parametrize("order", ["<", ">"])
def test_a_gguf_header_is_read_whole(order):
    data = _gguf(order)
    header = headers.gguf_header(data + b"tensor data")
    assert header is not None and header.length == len(data)
    assert header.metadata == {
        "llama.block_count": 32,
        "general.name": "Tiny",
        "tokenizer.ggml.scores": headers.MAX_KEPT_ARRAY + 1,
    }
    assert header.tensors == (headers.GgufTensor("token_embd.weight", (4096, 32000), 12),)


def test_every_prefix_short_of_the_header_asks_for_more():
    data = _gguf("<")
    assert all(headers.gguf_header(data[:n]) is None for n in range(0, len(data), 97))
    assert headers.gguf_header(data[:-1]) is None


@pytest.mark.parametrize(
    "data", [b"GGML" + bytes(20), b"GGUF" + struct.pack("<IQQ", 9, 0, 0)], ids=["magic", "version"]
)
def test_not_a_gguf_header_is_refused(data):
    with pytest.raises(EstimatorError) as e:
        headers.gguf_header(data)
    assert e.value.code == "weights_unreadable"
