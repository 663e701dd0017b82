"""The MCP server: the four tools with the request models' JSON schemas as input schemas and
the `--json` contracts as output schemas, over stdio or streamable HTTP (the official SDK)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import ToolAnnotations
from pydantic import BaseModel

from .. import __version__
from ..schemas import AnswerOut, FitOut
from . import tools
from .requests import AskRequest, EstimateRequest, FitRequest

NAME = "llm-sizer"
INSTRUCTIONS = (
    "LLM Sizer answers whether a language model runs or fine-tunes on given hardware, with exact "
    "memory per device, a verdict (fits, tight, offload, does_not_fit), speed, cost and advice. "
    "Use `ask` for a question in plain English or Dutch; `estimate` for one exactly specified "
    "workload; `plan` for the ways to make a workload fit, best first; `fit` for the inverse "
    "questions (longest context, most users, best precision, largest model, smallest GPU, how "
    "many GPUs, cheapest cloud instance). Memory values are bytes."
)
# The tools compute; a model named by its Hugging Face id may be fetched from the Hub (open
# world). `ask` also keeps the question in the user's history, as `llm-sizer ask` does.
COMPUTES = ToolAnnotations(read_only_hint=True, open_world_hint=True)
RECORDS = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=True
)


def _tool(
    name: str,
    title: str,
    description: str,
    request: type[BaseModel],
    output: Any,
    work: Callable[..., Any],
    *,
    is_async: bool = False,
    annotations: ToolAnnotations = COMPUTES,
) -> Tool:
    """A tool whose arguments are the fields of `request` (unknown ones refused), validated by
    the SDK, and whose result is checked against `output` and sent as structured content."""
    arguments = type(f"{request.__name__}Arguments", (request, ArgModelBase), {})

    if is_async:

        async def call(**fields: Any) -> Any:
            return await work(request.model_validate(fields))
    else:

        def call(**fields: Any) -> Any:
            return work(request.model_validate(fields))

    return Tool(
        fn=call,
        name=name,
        title=title,
        description=description,
        parameters=arguments.model_json_schema(by_alias=True),
        fn_metadata=FuncMetadata(arg_model=arguments, output_model=output),
        is_async=is_async,
        annotations=annotations,
    )


def build() -> MCPServer:
    asker = tools.Asker()

    @asynccontextmanager
    async def lifespan(_: MCPServer) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await asker.close()

    return MCPServer(
        NAME,
        title="LLM Sizer",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
        lifespan=lifespan,
        tools=[
            _tool(
                "estimate",
                "Memory, verdict, speed and cost of one workload",
                "The memory one model needs for inference or training with these settings, per "
                "device and per component, whether it fits the hardware given, the calculation "
                "step by step, speed and cost ranges, and the rules' recommendations; the "
                "fields are the flags of `llm-sizer estimate`.",
                EstimateRequest,
                AnswerOut,
                tools.estimate,
            ),
            _tool(
                "plan",
                "Ways to run a workload, best first",
                "For the same fields as `estimate`: the verdict as asked and the ways to make "
                "it fit or run better (another method, precision, KV cache, engine, more GPUs, "
                "offload), ranked, each with its memory and verdict.",
                EstimateRequest,
                tools.PlansOut,
                tools.plan,
            ),
            _tool(
                "fit",
                "Inverse questions: the most that fits, the smallest that runs it",
                "The longest context, most concurrent users or best precision that fits the "
                "hardware, the largest catalog model, the smallest GPU, how many GPUs, or the "
                "cheapest cloud instance; with the estimate at that answer (null when nothing "
                "fits).",
                FitRequest,
                FitOut,
                tools.fit,
            ),
            _tool(
                "ask",
                "A question in plain English or Dutch",
                "Answers like `llm-sizer ask`: the model, task, precision, context and hardware "
                "are read from the question; hardware not named comes from the user's saved "
                "profile. Returns status 'answered' with the estimate's fields and the reply "
                "text, or 'need_more' with the one question to put to the user and its choices.",
                AskRequest,
                dict[str, Any],
                asker.ask,
                is_async=True,
                annotations=RECORDS,
            ),
        ],
    )


def serve(http: bool, host: str, port: int) -> None:
    server = build()
    if http:
        server.run("streamable-http", host=host, port=port)
    else:
        server.run("stdio")
