"""Amounts read from a question: the budget for hardware, in the currency said."""

import pytest

from bot.conversation.parse import parse


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("what gpu should i buy for 1000 euro to run local llms", 1000, "EUR"),
        ("welke gpu voor 800 euro om llms te draaien", 800, "EUR"),
        ("best gpu under $2000 for llama 3 70b", 2000, "USD"),
        ("ik heb €1.200 te besteden aan een gpu voor llama 3 8b", 1200, "EUR"),
        ("gpu for 2k usd", 2000, "USD"),
        ("my budget is 3000 bucks", 3000, "USD"),
        ("£900 gpu for a coding model", 900, "GBP"),
        ("budget of 1,500 for a card for qwen 32b", 1500, None),
    ],
)
def test_a_budget_in_its_currency(text, amount, currency):
    d = parse(text)
    assert d.budget == amount and d.budget_currency == currency
    assert d.gpus is None  # "£900 gpu" is not 900 GPUs


@pytest.mark.parametrize(
    "text",
    [
        "what can i run on a 4090 for $2/hour",  # a rent
        "rent an h100 for $2.5 per hour",
        "electricity 0.30 euro per kwh on a 4090 llama 8b",  # an electricity price
        "budget 20 tokens of context",  # not money
        "up to 8 users on 2x4090",
    ],
)
def test_not_a_budget(text):
    assert parse(text).budget is None


def test_a_budget_out_of_range_is_refused_not_dropped():
    from bot.conversation.parse import read

    reading = read("a gpu for $5")
    assert [r.slot for r in reading.refused] == ["budget"]


@pytest.mark.parametrize(
    ("text", "context"),
    [
        # A sequence holds its prompt and its answer: 1,500 + 300.
        ("serve llama 3.1 8b to 200 users on an L40S, avg prompt 1500 tokens, answers 300", 1800),
        # Binary k for a context: 2,048 + 500.
        ("serve qwen 7b, prompts of 2k tokens and 500 token outputs, 50 users, a100", 2548),
        ("llama 8b 1000 token prompt 200 output on a 3090", 1200),
        ("llama 8b op een 3090, prompt van 3000 tokens en antwoorden van 500", 3500),
        # A prompt alone is the context, as before.
        ("100 prompts of 500 tokens on llama 8b", 500),
    ],
)
def test_prompt_and_answer_lengths_add_up_to_the_context(text, context):
    assert parse(text).context == context
