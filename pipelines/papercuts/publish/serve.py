"""A local static server that sends the headers netlify.toml declares (CSP included)."""
from __future__ import annotations

import fnmatch
import functools
import http.server
import tomllib
from pathlib import Path

from ..paths import PROJECT


def netlify_headers(path: Path = PROJECT / "netlify.toml") -> list[tuple[str, dict[str, str]]]:
    doc = tomllib.loads(path.read_text())
    return [(h["for"], dict(h.get("values", {}))) for h in doc.get("headers", [])]


def headers_for(url_path: str, rules) -> dict[str, str]:
    out: dict[str, str] = {}
    for pattern, values in rules:
        if fnmatch.fnmatchcase(url_path, pattern):
            out.update(values)
    return out


class Handler(http.server.SimpleHTTPRequestHandler):
    rules: list = []
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".csv": "text/csv; charset=utf-8", ".json": "application/json",
                      ".js": "text/javascript", ".svg": "image/svg+xml"}

    def end_headers(self) -> None:
        for name, value in headers_for(self.path.split("?", 1)[0], self.rules).items():
            if name.lower() != "content-type":  # already sent, from extensions_map
                self.send_header(name, value)
        super().end_headers()

    def log_message(self, format, *args) -> None:  # keep test output quiet
        pass


def make_server(root: Path, host: str = "127.0.0.1", port: int = 0) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(type("H", (Handler,), {"rules": netlify_headers()}), directory=str(root))
    return http.server.ThreadingHTTPServer((host, port), handler)


def serve(root: Path, host: str, port: int) -> None:
    server = make_server(root, host, port)
    print(f"serving {root} on http://{host}:{server.server_address[1]}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
