"""A local static server that sends the headers netlify.toml declares (CSP included)."""
from __future__ import annotations

import functools
import http.server
import posixpath
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..paths import PROJECT


def netlify_headers(path: Path = PROJECT / "netlify.toml") -> list[tuple[str, dict[str, str]]]:
    doc = tomllib.loads(path.read_text())
    return [(h["for"], dict(h.get("values", {}))) for h in doc.get("headers", [])]


def matches(pattern: str, url_path: str) -> bool:
    """Netlify's rule for a `for` path: segment by segment, a literal matches itself, `:name` any
    one segment, and `*` as a whole segment the rest of the path (a `*` inside a segment, as in
    `/*.csv`, is a literal on Netlify, so it is one here too)."""
    rule = [p for p in pattern.split("/") if p]
    target = [p for p in url_path.split("/") if p]
    for i, part in enumerate(rule):
        if part == "*":
            return True
        if i >= len(target) or not (part.startswith(":") or part == target[i]):
            return False
    return len(rule) == len(target)


def headers_for(url_path: str, rules) -> dict[str, str]:
    """The headers of every matching rule; a header set by several rules gets their values joined
    with ', ' (so two Content-Security-Policy values are both enforced)."""
    # match what is served, not how it was spelled: /c/x/../raw/ and /c/x%2F..%2Fraw/ are /c/raw/
    path = posixpath.normpath(unquote(urlsplit(url_path).path))
    out: dict[str, str] = {}
    for pattern, values in rules:
        if matches(pattern, path):
            for name, value in values.items():
                out[name] = f"{out[name]}, {value}" if name in out and out[name] != value else value
    return out


class Handler(http.server.SimpleHTTPRequestHandler):
    rules: list = []
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".csv": "text/csv; charset=utf-8", ".json": "application/json",
                      ".js": "text/javascript", ".svg": "image/svg+xml"}

    def guess_type(self, path) -> str:
        """The type a rule gives this request's path (as Netlify sends a rule's Content-Type
        instead of its own), else the file's by its name."""
        ruled = [v for k, v in headers_for(self.path, self.rules).items() if k.lower() == "content-type"]
        return ruled[0] if ruled else super().guess_type(path)

    def end_headers(self) -> None:
        for name, value in headers_for(self.path, self.rules).items():
            if name.lower() != "content-type":  # already sent (guess_type)
                self.send_header(name, value)
        super().end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The site's own 404 page, as Netlify serves it, instead of Python's bare one."""
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

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
