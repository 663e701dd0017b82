"""The bot's logging never shows the token: not in a message, not in the traceback of an
exception whose text holds a request URL, not in a stack."""

import io
import logging

import pytest

from bot.telegram.logs import REDACTED, redacting

TOKEN = "123456:SECRET-token-never-logged"
URL = f"https://api.telegram.org/bot{TOKEN}/sendMessage"


@pytest.fixture
def logged():
    """A logger whose records are made by the redacting factory, formatted to a string."""
    factory = logging.getLogRecordFactory()
    logging.setLogRecordFactory(redacting(TOKEN, factory))
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger = logging.getLogger("tests.telegram.logs")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield logger, out
    finally:
        logger.removeHandler(handler)
        logging.setLogRecordFactory(factory)


def test_the_message_is_redacted(logged):
    logger, out = logged
    logger.error("request to %s failed", URL)
    assert TOKEN not in out.getvalue()
    assert f"bot{REDACTED}/sendMessage" in out.getvalue()


def test_an_exceptions_text_and_traceback_are_redacted(logged):
    logger, out = logged
    try:
        raise ConnectionError(f"cannot reach {URL}")
    except ConnectionError:
        logger.exception("send failed")
    text = out.getvalue()
    assert "Traceback" in text and "ConnectionError: cannot reach" in text
    assert TOKEN not in text and "SECRET-token" not in text


def test_exc_info_given_as_the_exception_is_redacted(logged):
    logger, out = logged
    error = RuntimeError(f"the API said no to {TOKEN.split(':')[1]}")
    logger.error("handler failed", exc_info=error)
    assert "RuntimeError" in out.getvalue()
    assert "SECRET-token" not in out.getvalue()


def test_a_stack_is_redacted(logged):
    """A stack shows the source line of each frame: here one holding the token."""
    logger, out = logged
    logger.warning("x", stack_info=True)  # 123456:SECRET-token-never-logged
    text = out.getvalue()
    assert "Stack (most recent call last)" in text and 'logger.warning("x"' in text
    assert "SECRET-token" not in text
