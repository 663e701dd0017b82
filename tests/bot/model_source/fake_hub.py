"""A loopback fake of the Hugging Face Hub's two endpoints the bot reads: a repository's
resolve/main/config.json and /api/models/<id>?expand[]=safetensors. Repositories map to
(status, body); a `hang` set of repositories never answers within any client's timeout."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeHub:
    def __init__(self) -> None:
        self.configs: dict[str, Any] = {}
        self.safetensors: dict[str, dict[str, int]] = {}
        self.hang: set[str] = set()
        self.gated: set[str] = set()
        self.hits: list[str] = []
        self.url = ""

    def handler(self) -> type[BaseHTTPRequestHandler]:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                hub.hits.append(self.path)
                path = self.path.split("?", 1)[0]
                if path.startswith("/api/models/"):
                    repo = path.removeprefix("/api/models/")
                    found = hub.safetensors.get(repo)
                    body = (
                        {
                            "id": repo,
                            "safetensors": {"parameters": found, "total": sum(found.values())},
                        }
                        if found
                        else None
                    )
                else:
                    repo = path.removesuffix("/resolve/main/config.json").lstrip("/")
                    body = hub.configs.get(repo)
                if repo in hub.hang:
                    time.sleep(5)
                    return
                if repo in hub.gated:
                    self.send_response(401)
                    self.end_headers()
                    return
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


@contextmanager
def running(hub: FakeHub) -> Iterator[FakeHub]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), hub.handler())
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()
