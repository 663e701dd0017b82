"""`llm-sizer mcp` end to end: the real server in a subprocess, the SDK's own client over stdio
(and once over streamable HTTP), every tool called, bad input answered with a tool error."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from bot.cli import main, parser
from bot.i18n import LANGUAGES
from bot.mcp.requests import AskRequest, EstimateRequest, FitRequest, Language

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {"estimate", "plan", "fit", "ask"}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The server's and the in-process CLI's environment: a fresh database, the same user, no
    Hub downloads."""
    values = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'mcp.db'}",
        "LOGNAME": "alice",
        "HF_HUB_OFFLINE": "1",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("LLM_SIZER_LANG", raising=False)
    return values


async def cli_json(capsys: pytest.CaptureFixture, *argv: str) -> dict:
    """`llm-sizer ARGV` in this process (in a thread: it runs its own event loop)."""
    assert await asyncio.to_thread(main, list(argv)) in (0, 1)
    return json.loads(capsys.readouterr().out)


def stdio(env: dict[str, str]) -> Client:
    return Client(
        StdioServerParameters(
            command=sys.executable, args=["-m", "bot", "mcp"], env=env, cwd=str(ROOT)
        )
    )


WORKLOAD = {"model": "qwen2.5-7b", "task": "training", "method": "lora", "gpu": "RTX 4090"}
FLAGS = ["--model", "qwen2.5-7b", "--task", "training", "--method", "lora", "--gpu", "RTX 4090"]
BIG = {"model": "llama-3.1-70b", "task": "inference", "gpu": "RTX 4090"}
BIG_FLAGS = ["--model", "llama-3.1-70b", "--task", "inference", "--gpu", "RTX 4090"]


async def test_every_tool_gives_the_command_lines_numbers(env, capsys) -> None:
    async with stdio(env) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) == TOOLS
        assert listed["estimate"].input_schema["required"] == ["model", "task"]
        assert listed["estimate"].output_schema["title"] == "AnswerOut"
        assert listed["fit"].output_schema["title"] == "FitOut"
        assert set(listed["ask"].input_schema["properties"]) == {"question", "language"}

        estimate = await client.call_tool("estimate", WORKLOAD)
        plan = await client.call_tool("plan", WORKLOAD)
        # A workload that does not fit as asked: the plans are what the answer is for.
        plan_70b = await client.call_tool("plan", BIG)
        fit = await client.call_tool(
            "fit",
            {"question": "context", "model": "qwen2.5-7b", "task": "inference", "gpu": "4090"},
        )
        ask = await client.call_tool("ask", {"question": "can I run qwen2.5 7b on an RTX 4090?"})
        dutch = await client.call_tool(
            "ask", {"question": "past qwen2.5 7b op een RTX 4090?", "language": "nl"}
        )
    for result in (estimate, plan, plan_70b, fit, ask, dutch):
        assert not result.is_error, result.content
    cli = await cli_json(capsys, "estimate", *FLAGS, "--json")
    assert estimate.structured_content == cli
    # The text content is the same contract as JSON, for clients that read only text.
    assert json.loads(estimate.content[0].text) == cli
    assert plan.structured_content["verdict"] == cli["verdict"]
    assert plan.structured_content["recommendations"] == cli["recommendations"]
    assert plan.structured_content["plans"] == cli["plans"]
    big = await cli_json(capsys, "estimate", *BIG_FLAGS, "--json")
    assert big["verdict"] == "does_not_fit" and len(big["plans"]) >= 1
    assert plan_70b.structured_content["plans"] == big["plans"]
    assert listed["plan"].output_schema["properties"]["plans"]["type"] == "array"
    flags = ["--model", "qwen2.5-7b", "--task", "inference", "--gpu", "4090", "--json"]
    assert fit.structured_content == await cli_json(capsys, "fit", "context", *flags)
    asked = await cli_json(capsys, "ask", "can I run qwen2.5 7b on an RTX 4090?", "--json")
    assert ask.structured_content["status"] == "answered"
    for key in ("inputs", "memory", "verdict", "steps"):
        assert ask.structured_content[key] == asked[key], key
    assert dutch.structured_content["language"] == "nl"


async def test_bad_input_is_a_tool_error_and_the_server_goes_on(env) -> None:
    async with stdio(env) as client:
        unknown = await client.call_tool("estimate", {"model": "qwen 7b", "task": "inference"})
        wrong_type = await client.call_tool(
            "estimate", {"model": "7B", "task": "inference", "batch": "many"}
        )
        extra = await client.call_tool("plan", {"model": "7B", "task": "inference", "gpu_mem": 24})
        missing = await client.call_tool("fit", {"question": "context", "model": "7B"})
        no_hardware = await client.call_tool(
            "fit", {"question": "context", "model": "7B", "task": "inference"}
        )
        dutch = await client.call_tool(
            "estimate", {"model": "7B", "task": "inference", "context": "-5", "lang": "nl"}
        )
        empty = await client.call_tool("ask", {"question": " "})
        no_tool = await client.call_tool("sizes", {})
        after = await client.call_tool("estimate", {"model": "7B", "task": "inference"})

    def text(result) -> str:
        assert result.is_error
        return result.content[0].text

    assert "unknown model 'qwen 7b'; did you mean Qwen2.5-7B" in text(unknown)
    assert "batch" in text(wrong_type) and "integer" in text(wrong_type)
    assert "gpu_mem" in text(extra)
    assert "task" in text(missing)
    assert "'fit context' needs the hardware" in text(no_hardware)
    assert "context moet tussen" in text(dutch)
    assert "Traceback" not in text(empty)
    assert "sizes" in text(no_tool)
    assert not after.is_error and after.structured_content["inputs"]["params"] > 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server(env) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "mcp", "--http", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def test_streamable_http(http_server, capsys) -> None:
    async with Client(http_server) as client:
        result = await client.call_tool("estimate", WORKLOAD)
    assert result.structured_content == await cli_json(capsys, "estimate", *FLAGS, "--json")


def estimate_flags(command: str) -> set[str]:
    """The dests of `llm-sizer estimate`'s (or fit's) flags, but for the output format."""
    sub = next(a for a in parser()._actions if a.dest == "command").choices[command]
    return {
        a.dest
        for a in sub._actions
        if a.option_strings and a.dest not in {"help", "json", "format"}
    }


def test_the_requests_have_one_field_per_flag() -> None:
    assert set(EstimateRequest.model_fields) == estimate_flags("estimate")
    assert set(FitRequest.model_fields) == estimate_flags("fit") | {"question"}
    assert set(AskRequest.model_fields) == {"question", "language"}
    assert Language.__args__ == LANGUAGES
