"""The hardware reader and the question parser never raise, whatever is typed around the names
in the catalogs: number words, memory sizes (absurd ones too) and noise."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.conversation.answer import machine
from bot.conversation.parse import parse
from estimator.errors import EstimatorError
from estimator.hardware.catalog import apple_chips, cpu_platforms, gpus
from estimator.hardware.names import names_of
from estimator.hardware.reader import read_hardware
from estimator.hardware.words import NUMBERS

NAMES = sorted(
    {g.name for g in gpus()}
    | {n for g in gpus() for n in names_of(g)}
    | {c.chip for c in apple_chips()}
    | {a for c in cpu_platforms() for a in c.aliases}
)
MEMORY = st.builds(
    lambda n, unit, sign: f"{sign}{n}{unit}",
    st.one_of(
        st.integers(0, 4096), st.just("9" * 400), st.floats(0, 1e6).map(lambda f: f"{f:.1f}")
    ),
    st.sampled_from(["gb", " gb", "G", " gig", "tb", "GiB", "gb ram", " gb vram", "gb csv"]),
    st.sampled_from(["", "-", "+"]),
)
WORDS = st.one_of(
    st.sampled_from(NAMES),
    st.sampled_from(sorted(NUMBERS)),
    MEMORY,
    st.integers(-(10**6), 10**400).map(str),
    st.sampled_from(["x", "2x", "+", "&", ",", "en", "met", "or", "of", "(", ")", "'s", "s"]),
    st.sampled_from(["laptop", "cpu only", "geen gpu", "dual", "8-channel", "ddr5-6000", "socket"]),
    st.text(max_size=6),
)
TEXTS = st.lists(WORDS, max_size=10).map(" ".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_the_reader_never_raises_and_blanks_in_place(text):
    mention, rest = read_hardware(text)
    assert len(rest) == len(text)
    for card in mention.cards:
        assert card.count is None or card.count >= 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_a_question_is_parsed_and_its_machine_built_or_refused_with_a_reason(text):
    draft = parse(text)
    try:
        machine(draft)
    except EstimatorError as refused:
        assert refused.code
