"""`python -m bot`: the `llm-sizer` command, for when the console script is not on PATH."""

from .cli import entry

entry()
