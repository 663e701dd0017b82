"""Logging for the bot process: the token never reaches a log line. Bot API URLs hold the token
and httpx logs every request URL, so its request lines are silenced; and every record, from any
library and whatever handler it goes to, has the token blanked out when it is made."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

REDACTED = "<token>"


def redacting(
    token: str, make: Callable[..., logging.LogRecord]
) -> Callable[..., logging.LogRecord]:
    """A log record factory that formats the message and blanks the token out of it."""

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        message = record.getMessage()
        if token and token in message:
            record.msg, record.args = message.replace(token, REDACTED), None
        return record

    return factory


def configure(token: str, level: int = logging.INFO) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.setLogRecordFactory(redacting(token, logging.getLogRecordFactory()))
