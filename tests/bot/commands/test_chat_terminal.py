"""`llm-sizer chat` in a real pseudo-terminal (the process's controlling terminal, so Ctrl-C is
the terminal's SIGINT): Ctrl-C and Ctrl-D, lines wrapped to the terminal's width between words,
and the verdict in colour."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import socket
import stat
import struct
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
PROMPT = "\r\n> "
QUESTION = "can I fine-tune qwen2.5 7b on a 4090?"


class Chat:
    """`python -m bot chat` on a pseudo-terminal `columns` wide."""

    def __init__(self, tmp_path: Path, columns: int = 100, **env: str) -> None:
        environment = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'chat.db'}",
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "LOGNAME": "alice",
            "HF_HUB_OFFLINE": "1",
            "TERM": "xterm",
            "COLUMNS": "",
            **env,
        }
        environment.pop("LLM_SIZER_LANG", None)
        environment = {k: v for k, v in environment.items() if v != ""}
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the chat, on the terminal's slave side
            os.chdir(ROOT)
            os.execve(sys.executable, [sys.executable, "-m", "bot", "chat"], environment)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        self.output = ""

    def start(self, use_this_machine: str = "n") -> str:
        """Past the first run's offer of the detected hardware (the database is new), to the
        first prompt; what was shown meanwhile."""
        shown = self.read_until("[Y/n] ")
        self.type(use_this_machine + "\r")
        return shown + self.read_until("\r\n> ")

    def read_until(self, needle: str, timeout: float = 60) -> str:
        """Everything printed until `needle` (included) appears after what was read before."""
        start = len(self.output)
        deadline = time.monotonic() + timeout
        while needle not in self.output[start:]:
            left = deadline - time.monotonic()
            assert left > 0, f"no {needle!r} in {self.output[start:]!r}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the child has gone: EIO on the master
                    chunk = b""
                assert chunk, f"the chat ended before {needle!r}: {self.output[start:]!r}"
                self.output += chunk.decode("utf-8", "replace")
        end = self.output.index(needle, start) + len(needle)
        return self.output[start:end]

    def settle(self, quiet: float = 0.5, timeout: float = 30) -> None:
        """Reads until nothing more is printed for `quiet` seconds: readline has redrawn the line
        and waits for the next key."""
        deadline = time.monotonic() + timeout
        while select.select([self.fd], [], [], quiet)[0]:
            assert time.monotonic() < deadline, f"still printing: {self.output[-200:]!r}"
            chunk = os.read(self.fd, 65536)
            assert chunk, f"the chat ended: {self.output[-200:]!r}"
            self.output += chunk.decode("utf-8", "replace")

    def interrupt(self) -> str:
        """Ctrl-C at the prompt, to the next prompt; what was shown meanwhile.

        CPython's readline loses a SIGINT that arrives while it is handling a key rather than
        waiting in select() (it waits on, until the next key): under load that window can be
        hit even after the echo has stopped. One more Ctrl-C, which a person would press too,
        then comes while it waits."""
        start = len(self.output)
        self.type("\x03")
        try:
            self.read_until("> ", timeout=5)
        except AssertionError:
            self.type("\x03")
            self.read_until("> ")
        return self.output[start:]

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def exit_code(self, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            with_output = select.select([self.fd], [], [], 0.1)[0]
            if with_output:
                with contextlib.suppress(OSError):
                    self.output += os.read(self.fd, 65536).decode("utf-8", "replace")
        raise AssertionError(f"the chat did not end: {self.output[-500:]!r}")

    def answer(self, question: str) -> str:
        """The reply to `question`, without the echo of the question itself (which must fit
        on the prompt's line: readline redraws a longer one with cursor moves)."""
        self.type(question + "\r")
        echo, reply = self.read_until(PROMPT).removesuffix(PROMPT).split("\r\n", 1)
        assert echo.endswith(question)
        return reply


def history(tmp_path: Path) -> str:
    path = tmp_path / "data" / "llm-sizer" / "chat_history"
    return path.read_text() if path.exists() else ""


def test_ctrl_c_drops_the_line_and_ctrl_d_leaves(tmp_path: Path) -> None:
    chat = Chat(tmp_path)
    chat.start()
    chat.type("half a quest")
    chat.read_until("half a quest")
    chat.settle()
    seen = chat.interrupt()
    assert "(Ctrl-D or “quit” leaves the chat)" in seen
    chat.type("new\r")
    chat.read_until(PROMPT)
    chat.type("\x04")
    # "Bye." on a line of its own, not after the prompt.
    assert chat.read_until("Bye.").endswith("\r\nBye.")
    assert chat.exit_code() == 0
    assert "half a quest" not in history(tmp_path)
    assert "new" in history(tmp_path).splitlines()


def test_ctrl_c_stops_an_answer_and_the_chat_goes_on(tmp_path: Path) -> None:
    """A model on the Hub, from a Hub that accepts the request and never answers: Ctrl-C ends
    the wait, and the next question is answered."""
    with socket.socket() as hub:
        hub.bind(("127.0.0.1", 0))
        hub.listen()
        chat = Chat(
            tmp_path,
            HF_HUB_OFFLINE="0",
            HF_ENDPOINT=f"http://127.0.0.1:{hub.getsockname()[1]}",
            HF_HOME=str(tmp_path / "hf"),
        )
        chat.start()
        chat.type("can I run someone/unheard-of-model-7b on an RTX 4090?\r")
        ready, _, _ = select.select([hub], [], [], 60)
        assert ready, "the chat never asked the Hub"
        connection, _ = hub.accept()
        chat.type("\x03")
        chat.read_until("(answer stopped)\r\n> ")
        assert "Verdict" in chat.answer(QUESTION)
        chat.type("\x04")
        chat.read_until("Bye.")
        # At once, though the stopped answer's thread still waits for the Hub.
        assert chat.exit_code(timeout=10) == 0
        connection.close()


def words(text: str) -> list[str]:
    return ANSI.sub("", text).split()


def test_lines_wrap_to_the_terminal_between_words_and_the_verdict_has_colour(
    tmp_path: Path,
) -> None:
    question = "can I fully fine-tune qwen2.5 7b on a 4090?"
    wide = Chat(tmp_path / "wide", columns=400, NO_COLOR="1")
    wide.start()
    unwrapped = wide.answer(question)
    wide.type("\x04")
    assert wide.exit_code() == 0
    narrow = Chat(tmp_path / "narrow", columns=50)
    narrow.start()
    wrapped = narrow.answer(question)
    narrow.type("\x04")
    assert narrow.exit_code() == 0
    lines = ANSI.sub("", wrapped).split("\r\n")
    # A word longer than the terminal (a command's "TrainingArguments(...,") cannot be broken
    # between words; every other line fits.
    assert all(len(line) <= 49 or " " not in line.strip() for line in lines), max(lines, key=len)
    assert max(len(line) for line in unwrapped.split("\r\n")) > 49
    # The same words in the same order: only the line breaks moved, no word was cut.
    assert words(wrapped) == words(unwrapped)
    # Red and bold (full fine-tuning of 7.6B parameters needs far more than 24 GB), and only
    # where the output is a terminal that takes colour.
    assert "\x1b[" not in unwrapped
    coloured = [line for line in wrapped.split("\r\n") if "\x1b[" in line]
    assert coloured and all(line.startswith("\x1b[1;31m") for line in coloured)
    assert "does not fit" in " ".join(ANSI.sub("", line) for line in coloured).lower()


def this_machine_words() -> str:
    """What the answer's headline shows of this machine (without hardware it shows none)."""
    from bot.detect import detect
    from bot.detect.profile import profile

    spec = profile(detect()).spec
    return spec.gpu or spec.apple_chip or "on CPU"


def test_the_first_run_offers_this_machine_and_my_machine_means_it(tmp_path: Path) -> None:
    chat = Chat(tmp_path)
    shown = chat.start("n")
    assert "No hardware is saved yet. This machine has " in shown
    assert "Not saved." in shown
    reply = chat.answer("can I run qwen2.5 7b on my machine?")
    assert this_machine_words() in reply.split("\r\n")[0]
    chat.type("\x04")
    assert chat.exit_code() == 0
    # The "n" answered a yes/no question: the up arrow must not bring it back as a question.
    assert history(tmp_path).splitlines() == ["can I run qwen2.5 7b on my machine?"]
    # The typed questions are nobody else's business.
    assert stat.S_IMODE((tmp_path / "data" / "llm-sizer").stat().st_mode) == 0o700
    # Nothing saved, so the next start offers it again; yes saves it as the default.
    chat = Chat(tmp_path)
    shown = chat.start("")
    assert "Saved profile 'this machine': " in shown
    assert "'this machine' is now your default profile." in shown
    chat.type("\x04")
    assert chat.exit_code() == 0
    chat = Chat(tmp_path)
    assert "[Y/n]" not in chat.read_until("\r\n> ")
    chat.type("\x04")
    assert chat.exit_code() == 0
