"""Serve an httpx transport (such as the fake GitHub) over HTTP on 127.0.0.1, for tests that
run the pipeline end to end with `api_url` pointing at it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx


@contextmanager
def serve(handle: Callable[[httpx.Request], httpx.Response]) -> Iterator[str]:
    """Yield the base URL of a loopback server answering every POST with `handle`."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", 0))
            request = httpx.Request(
                "POST",
                f"http://{self.headers.get('host')}{self.path}",
                headers=dict(self.headers.items()),
                content=self.rfile.read(length),
            )
            response = handle(request)
            body = response.read()
            self.send_response(response.status_code)
            for name, value in response.headers.items():
                if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                    self.send_header(name, value)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
