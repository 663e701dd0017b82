"""What people type is refused with a reason or stored verbatim; it is never executed."""

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from storage import HardwareSpec, NewQuery, Storage, StorageError, checks
from storage.checks import HARDWARE_TEXT_MAX, QUERY_TEXT_MAX
from storage.models import UserRow

GPU = HardwareSpec(gpu="GeForce RTX 4090", gpu_count=1, gpu_memory_gb=24)
INJECTIONS = [
    "'; DROP TABLE users; --",
    'Robert"); DELETE FROM hardware_profiles; --',
    "1 OR 1=1",
    "%s %(name)s {0} $1 ? :param",
    "\\x00 looks like NUL but is not",
]


@pytest.mark.parametrize("text", INJECTIONS)
async def test_sql_looking_text_is_stored_verbatim(storage: Storage, text: str):
    user = await storage.users.ensure("local", text)
    await storage.profiles.save(user.id, text[:60], GPU, text=text)
    saved = await storage.queries.save(NewQuery(user_id=user.id, text=text, inputs={text: text}))
    assert (await storage.users.find("local", text)).id == user.id
    assert (await storage.profiles.default(user.id)).text == text
    (query,) = await storage.queries.recent_for_user(user.id)
    assert query == saved and query.text == text and query.inputs == {text: text}
    async with storage.db.read() as session:
        assert await session.scalar(select(func.count()).select_from(UserRow)) == 1


async def test_ten_megabytes_of_profile_text_is_refused(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    with pytest.raises(StorageError) as refused:
        await storage.profiles.save(user.id, "big", GPU, text="x" * 10_000_000)
    assert refused.value.code == "text_too_long"
    assert refused.value.params == {
        "field": "text",
        "length": 10_000_000,
        "limit": HARDWARE_TEXT_MAX,
    }
    assert await storage.profiles.of_user(user.id) == []


async def test_a_huge_name_is_refused_before_any_work(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    with pytest.raises(StorageError) as refused:
        await storage.profiles.save(user.id, "n" * 10_000_000, GPU)
    assert refused.value.code == "text_too_long"


@pytest.mark.parametrize("name", ["lap\x00top", "lap\x1btop", "lap\ntop", "lap\x7ftop"])
async def test_control_characters_in_names_are_refused(storage: Storage, name: str):
    user = await storage.users.ensure("local", "alice")
    with pytest.raises(StorageError) as refused:
        await storage.profiles.save(user.id, name, GPU)
    assert refused.value.code == "text_control_chars"


@pytest.mark.parametrize("name", ["", "   ", "\t"])
async def test_blank_names_are_refused(storage: Storage, name: str):
    user = await storage.users.ensure("local", "alice")
    with pytest.raises(StorageError) as refused:
        await storage.profiles.save(user.id, name, GPU)
    assert refused.value.code in {"name_empty", "text_control_chars"}


def test_queries_refuse_nul_and_escape_codes_but_keep_newlines():
    with pytest.raises(StorageError):
        NewQuery(user_id=1, text="ask\x00")
    with pytest.raises(StorageError):
        NewQuery(user_id=1, text="\x1b[31mred")
    assert NewQuery(user_id=1, text="line one\nline two\ttab").text == "line one\nline two\ttab"
    with pytest.raises(StorageError) as long:
        NewQuery(user_id=1, text="q" * (QUERY_TEXT_MAX + 1))
    assert long.value.code == "text_too_long"


@pytest.mark.parametrize(
    ("inputs", "code"),
    [
        ({"x": "a\x00b"}, "text_control_chars"),
        ({"x": float("nan")}, "not_json"),
        ({"x": object()}, "not_json"),
        ({"x": "y" * 70_000}, "document_too_large"),
    ],
)
def test_query_inputs_must_be_plain_small_json(inputs: dict, code: str):
    with pytest.raises(StorageError) as refused:
        NewQuery(user_id=1, text="q", inputs=inputs)
    assert refused.value.code == code


def test_negative_or_huge_byte_counts_are_refused():
    for value in (-1, 2**63):
        with pytest.raises(StorageError) as refused:
            NewQuery(user_id=1, text="q", total_bytes=value)
        assert refused.value.code == "out_of_range"


async def test_update_ids_outside_bigint_are_refused(storage: Storage):
    with pytest.raises(StorageError):
        await storage.updates.claim("telegram", 2**63)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(max_size=300))
async def test_any_question_text_is_refused_or_read_back_unchanged(storage: Storage, text: str):
    user = await storage.users.ensure("local", "prop")
    try:
        saved = await storage.queries.save(NewQuery(user_id=user.id, text=text))
    except StorageError as refused:
        assert refused.code == "text_control_chars"
        return
    (latest,) = await storage.queries.recent_for_user(user.id, limit=1)
    assert latest.id == saved.id and latest.text == text


def test_control_characters_are_exactly_unicodes_category_cc():
    """Found by a regular expression: every control character (category Cc) is refused, in free
    text all but line breaks and tabs, and no other character is."""
    for code in range(0x10000):
        char = chr(code)
        if 0xD800 <= code <= 0xDFFF:
            continue  # surrogates are no text at all (NewQuery refuses them elsewhere)
        control = unicodedata.category(char) == "Cc"
        try:
            checks.label(f"a{char}b", "title")
            refused_in_label = False
        except StorageError:
            refused_in_label = True
        try:
            checks.free_text(f"a{char}b", "text", QUERY_TEXT_MAX)
            refused_in_text = False
        except StorageError:
            refused_in_text = True
        assert refused_in_label == control, hex(code)
        assert refused_in_text == (control and char not in "\n\r\t"), hex(code)
