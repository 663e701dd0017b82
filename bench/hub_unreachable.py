"""Benchmark: what a question naming a Hub repository costs when the Hub does not answer.

A cold `llm-sizer estimate --model org/name` process against a loopback server that accepts
the connection and never replies (the worst case: a firewall that drops, a Hub that hangs),
and against a closed port (no Hub at all). Target: under 5 s each, and the one-line reason
says the Hub cannot be reached. Prints the figures and writes bench/results/hub_unreachable.json.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from results_file import write

TARGET_S = 5.0


def _silent_server() -> tuple[socket.socket, int]:
    """A listening socket that accepts connections and never answers them."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    return server, server.getsockname()[1]


def _ask(endpoint: str) -> tuple[float, int, str]:
    cli = Path(sys.executable).with_name("llm-sizer")
    env = {**os.environ, "HF_ENDPOINT": endpoint, "HF_HUB_OFFLINE": "0"}
    start = time.monotonic()
    done = subprocess.run(
        [str(cli), "estimate", "--model", "someone/their-qwen-7b-finetune", "--task", "inference"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    return time.monotonic() - start, done.returncode, done.stderr.strip()


def main() -> None:
    server, port = _silent_server()
    silent = _ask(f"http://127.0.0.1:{port}")
    server.close()
    closed = _ask("http://127.0.0.1:9")
    result = {
        "target_s": TARGET_S,
        "silent_hub_s": round(silent[0], 2),
        "closed_port_s": round(closed[0], 2),
        "exit_codes": [silent[1], closed[1]],
        "messages": [silent[2], closed[2]],
    }
    for name, (seconds, code, text) in (("silent Hub", silent), ("closed port", closed)):
        print(f"{name}: {seconds:.2f} s (exit {code}) {text}")
    write("hub_unreachable", result)
    if max(silent[0], closed[0]) > TARGET_S:
        raise SystemExit(f"over the {TARGET_S} s target")


if __name__ == "__main__":
    main()
