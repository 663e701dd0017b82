"""The hardware reader on its own: what it finds, what it leaves for the other readers (blanked
in place), alternatives, data sizes, and words shaped like GPUs that name none."""

import pytest

from estimator.hardware.reader import read_hardware


def cards(text: str) -> list[list[tuple[str, int | None]]]:
    mention, _ = read_hardware(text)
    return [[(c.gpu.name, c.count) for c in option] for option in mention.options]


def test_what_is_read_is_blanked_in_place_and_the_rest_is_kept():
    text = "Run Llama-3.1-8B on 2x RTX 3090 with 64GB RAM at 8k context"
    mention, rest = read_hardware(text)
    assert len(rest) == len(text)
    assert rest.split() == ["Run", "Llama-3.1-8B", "on", "with", "at", "8k", "context"]
    assert (mention.cards[0].count, mention.ram_gb) == (2, 64)


def test_a_minus_and_parentheses_go_with_what_they_belong_to():
    _, rest = read_hardware("a100 (80gb) and -24GB")
    assert rest.split() == ["and"]


@pytest.mark.parametrize(
    "text",
    [
        "4096 tokens",
        "8192 context",
        "24/7 on my server",
        "how many tokens/s",
        "5000 rows",
        "llama 3 70b",
    ],
)
def test_numbers_that_are_not_hardware_stay(text):
    mention, rest = read_hardware(text)
    assert mention.empty and rest == text


def test_data_sizes_are_data():
    mention, rest = read_hardware("xgboost on a 10GB csv, 1M rows")
    assert (mention.data_gb, mention.vram_gb, mention.ram_gb, mention.cards) == (10, None, None, ())
    assert "1M rows" in rest
    assert read_hardware("een dataset van 5 gb")[0].data_gb == 5


def test_cards_joined_by_and_are_one_machine_cards_joined_by_or_are_options():
    assert cards("a 4090 plus a 3090") == [[("GeForce RTX 4090", 1), ("GeForce RTX 3090", 1)]]
    assert cards("4090 en een 3090") == [[("GeForce RTX 4090", None), ("GeForce RTX 3090", 1)]]
    assert cards("2x 3090, 3060") == [[("GeForce RTX 3090", 2), ("GeForce RTX 3060 12GB", None)]]
    assert cards("L4 of T4") == [[("L4", None)], [("Tesla T4", None)]]
    assert cards("4090 or 3090") == [[("GeForce RTX 4090", None)], [("GeForce RTX 3090", None)]]
    assert cards("4090 vs 5090") == [[("GeForce RTX 4090", None)], [("GeForce RTX 5090", None)]]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("2x3090", 2),
        ("3090x2", 2),
        ("3090 * 4", 4),
        ("six 4090s", 6),
        ("zes 4090's", 6),
        ("twee 3090s", 2),
        ("a pair of 3090s", 2),
        ("dual 3090", 2),
        ("quad 3090", 4),
        ("with 4 3090s", 4),
        ("3090", None),
    ],
)
def test_counts(text, count):
    ((card,),) = [list(o) for o in read_hardware(text)[0].options]
    assert card.count == count


def test_a_model_number_before_a_card_is_not_a_count():
    assert cards("llama 3 4090") == [[("GeForce RTX 4090", None)]]


def test_the_laptop_card_when_the_text_is_about_a_laptop():
    assert cards("laptop with a 4070") == [[("GeForce RTX 4070 Laptop", 1)]]
    assert cards("a 4070 in my desktop") == [[("GeForce RTX 4070", 1)]]
    assert cards("rtx 3050 ti") == [[("GeForce RTX 3050 Ti Laptop", None)]]  # only a laptop card


def test_apple_chips_take_their_memory_across_the_product_name():
    assert read_hardware("M1 macbook air 16gb")[0].apple.spec == "M1 16GB"
    assert read_hardware("64gb m3 max")[0].apple.spec == "M3 Max 64GB"
    assert read_hardware("mac studio m2 ultra met 192 gb")[0].apple.spec == "M2 Ultra 192GB"
    mention, _ = read_hardware("m2 with 24gb of ram")
    assert (mention.apple.spec, mention.ram_gb) == ("M2 24GB", None)


def test_cpus_are_platforms_or_devices():
    mention, _ = read_hardware("dual epyc genoa with 1.5tb ram")
    assert (mention.cpu.platform.sockets, mention.ram_gb, mention.cards) == (2, 1536, ())
    pi, _ = read_hardware("Raspberry Pi 4 met 4GB")
    assert (pi.cpu.platform.name, pi.cpu.ram_gb, pi.cpu_only) == ("Raspberry Pi 4", 4, True)
    assert read_hardware("8-channel DDR5")[0].cpu.platform.bandwidth_gbs == 307.2


def test_a_gpu_shaped_word_that_names_no_gpu_is_unknown_with_suggestions():
    for text, near in (
        ("rtx 4095", "GeForce RTX 4090"),
        ("RTX 4090 Ti", "GeForce RTX 4090"),
        ("arc b590", "Arc B580"),
        ("h300", "H100 SXM5 80GB"),
        ("my 4095 gpu", "GeForce RTX 4090"),
    ):
        (unknown,) = read_hardware(text)[0].unknown
        assert near in unknown.suggestions, (text, unknown)
    assert not read_hardware("flan-t5 and llama2 on i7-12700")[0].unknown


def test_memory_by_what_the_words_say_it_is():
    m = read_hardware("24GB VRAM and 64 GB of system memory")[0]
    assert (m.vram_gb, m.ram_gb) == (24, 64)
    assert read_hardware("RAM: 32GB")[0].ram_gb == 32
    assert read_hardware("16 gig geheugen")[0].memory_gb == 16
    assert read_hardware("op een kaart van 12gb")[0].vram_gb == 12
    assert read_hardware("1.5 TB RAM")[0].ram_gb == 1536
    assert read_hardware("-24GB")[0].vram_gb == -24
    assert read_hardware("3090-24gb")[0].cards[0].gpu.name == "GeForce RTX 3090"
