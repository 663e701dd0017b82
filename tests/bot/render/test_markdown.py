"""`--format markdown` on estimate, fit and ask: read back with a CommonMark parser (with GFM
tables), the table's numbers held against the JSON contract of the same answer."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py reads the Markdown back")

GIB = 1 << 30


def run(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def parsed(text: str) -> list:
    return markdown_it.MarkdownIt("commonmark").enable("table").parse(text)


def table(text: str) -> list[list[str]]:
    """The first table's rows, each a list of its cells' text."""
    tokens = parsed(text)
    start = next(i for i, tok in enumerate(tokens) if tok.type == "table_open")
    rows: list[list[str]] = []
    for tok in tokens[start:]:
        if tok.type == "tr_open":
            rows.append([])
        elif tok.type == "inline" and rows:
            rows[-1].append(tok.content)
        elif tok.type == "table_close":
            break
    return rows


LORA = ["--model", "qwen2.5-7b", "--task", "training", "--method", "lora", "--gpu", "4090"]


def test_estimate_as_markdown(capsys) -> None:
    code, text = run(capsys, "estimate", *LORA, "--format", "markdown")
    assert code == 0
    _, raw = run(capsys, "estimate", *LORA, "--json")
    body = json.loads(raw)
    rows = table(text)
    assert rows[0] == ["Component", "Total"]
    # Qwen2.5-7B's 7,615,616,512 weights in BF16: 15,231,233,024 B = 14.18 GiB.
    assert body["memory"]["components"]["weights"] == 7_615_616_512 * 2
    assert ["Weights", "14.2 GiB"] in rows
    total = body["memory"]["total_bytes"]
    assert rows[-2] == ["**Total**", f"**{total / GIB:.1f} GiB**"]
    assert rows[-1][0] == "Usable"
    first = next(tok for tok in parsed(text) if tok.type == "inline")
    assert first.content.startswith("Qwen2.5-7B (7.62B), training")
    assert "**Verdict: fits." in text
    assert "Say “details”" not in text


def test_json_and_format_json_are_one_contract(capsys) -> None:
    _, flag = run(capsys, "estimate", *LORA, "--json")
    _, fmt = run(capsys, "estimate", *LORA, "--format", "json")
    assert flag == fmt


def test_fit_as_markdown_has_the_per_device_column(capsys) -> None:
    argv = ["--model", "llama-3.1-70b", "--task", "inference", "--engine", "vllm", "--gpu"]
    argv = [*argv, "a100 80gb", "--precision", "bf16"]
    code, text = run(capsys, "fit", "gpus", *argv, "--format", "markdown")
    assert code == 0
    assert text.startswith("### GPUs of this kind needed: 2")
    rows = table(text)
    assert rows[0] == ["Component", "Total", "Per device"]
    weights = next(r for r in rows if r[0] == "Weights")
    # Two GPUs hold half the weights each.
    total, per_device = (float(cell.split()[0]) for cell in weights[1:])
    assert per_device == pytest.approx(total / 2, abs=0.1)


def test_fit_with_nothing_that_fits(capsys) -> None:
    argv = ["--model", "llama-3.1-405b", "--task", "inference", "--gpu", "4090"]
    code, text = run(capsys, "fit", "context", *argv, "--format", "markdown")
    assert code == 1
    assert text == "### Nothing in the search fits this workload\n"


def test_dutch_markdown(capsys) -> None:
    _, text = run(capsys, "estimate", *LORA, "--format", "markdown", "--lang", "nl")
    assert table(text)[0] == ["Onderdeel", "Totaal"]
    assert ["Gewichten", "14,2 GiB"] in table(text)


def test_ask_as_markdown(capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    monkeypatch.setenv("LOGNAME", "alice")
    # A question without the task: the question back, its choices a list.
    code, text = run(capsys, "ask", "llama 3.1 8b", "--format", "markdown")
    assert code == 0
    items = [tok.content for tok in parsed(text) if tok.type == "inline"]
    assert "Run it (inference)" in items and "Fine-tune it (training)" in items
    code, text = run(capsys, "ask", "new", "--format", "markdown")
    code, text = run(capsys, "ask", "can I fine-tune 7B on 24GB?", "--format", "markdown")
    assert code == 0
    assert "**Verdict: does not fit." in text
    # A bare 7B is Qwen2.5-7B's shape with 25 layers, 6.92B parameters; AdamW keeps two fp32
    # moments: 8 B per parameter = 51.5 GiB.
    assert ["Optimizer states", "51.5 GiB"] in table(text)
    advice = [tok for tok in parsed(text) if tok.type == "ordered_list_open"]
    assert advice, "the recommendations are a numbered list"
