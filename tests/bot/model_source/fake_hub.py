"""A loopback fake of the Hugging Face Hub's endpoints the bot reads: a repository's
resolve/main/config.json, /api/models/<id>?expand[]=safetensors, the file tree
/api/models/<id>/tree/main and resolve/main/<file> with Range requests (206 and the bytes
asked). A `hang` set of repositories (or "repo/file") never answers within any client's
timeout; `cut` serves only the first bytes of a file, as a truncated upload would."""

from __future__ import annotations

import contextlib
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
        self.files: dict[str, dict[str, bytes]] = {}
        self.sizes: dict[str, int] = {}  # "repo/file": the size the tree says, when not its bytes
        self.cut: dict[str, int] = {}  # "repo/file": bytes served
        self.hits: list[str] = []
        self.ranges: list[str] = []
        self.url = ""

    def handler(self) -> type[BaseHTTPRequestHandler]:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                hub.hits.append(self.path)
                path = self.path.split("?", 1)[0]
                if path.startswith("/api/models/") and path.endswith("/tree/main"):
                    repo = path.removeprefix("/api/models/").removesuffix("/tree/main")
                    held = hub.files.get(repo)
                    body = (
                        [
                            {
                                "type": "file",
                                "path": f,
                                "size": hub.sizes.get(f"{repo}/{f}", len(b)),
                            }
                            for f, b in held.items()
                        ]
                        if held is not None
                        else None
                    )
                elif "/resolve/main/" in path and not path.endswith("/config.json"):
                    self._file(*path.lstrip("/").split("/resolve/main/", 1))
                    return
                elif path.startswith("/api/models/"):
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

            def _file(self, repo: str, name: str) -> None:
                data = hub.files.get(repo, {}).get(name)
                if repo in hub.hang or f"{repo}/{name}" in hub.hang:
                    time.sleep(5)
                    return
                if data is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                data = data[: hub.cut.get(f"{repo}/{name}", len(data))]
                asked = self.headers.get("Range", "")
                hub.ranges.append(asked)
                status = 200
                if asked.startswith("bytes="):
                    first, _, last = asked.removeprefix("bytes=").partition("-")
                    data = data[int(first) : int(last) + 1 if last else None]
                    status = 206
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                # The client stops reading once the header is whole.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
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
