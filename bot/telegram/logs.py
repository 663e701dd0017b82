"""Logging for the bot process: the token never reaches a log line. Bot API URLs hold the token
and httpx logs every request URL, so its request lines are silenced; and every record, from any
library and whatever handler it goes to, has the token blanked out when it is made: in its
message, and in the formatted exception and stack it carries (an error text holding a request
URL would otherwise print the token in the traceback)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

REDACTED = "<token>"
_FORMATTER = logging.Formatter()


def redacting(
    token: str, make: Callable[..., logging.LogRecord]
) -> Callable[..., logging.LogRecord]:
    """A log record factory that formats the message and blanks the token out of it, and out
    of the record's exception and stack."""
    # The part after the colon is the secret; the bot id before it is public.
    secrets = [s for s in (token, token.partition(":")[2]) if len(s) >= 8]

    def blank(text: str) -> str:
        for secret in secrets:
            text = text.replace(secret, REDACTED)
        return text

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        if not secrets:
            return record
        message = record.getMessage()
        if any(s in message for s in secrets):
            record.msg, record.args = blank(message), None
        if record.exc_info and record.exc_info[1] is not None:
            # Formatters use exc_text when it is set and only format exc_info when it is not.
            record.exc_text = blank(_FORMATTER.formatException(record.exc_info))
        if record.stack_info:
            record.stack_info = blank(record.stack_info)
        return record

    return factory


def configure(token: str, level: int = logging.INFO) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.setLogRecordFactory(redacting(token, logging.getLogRecordFactory()))
