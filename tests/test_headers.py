"""netlify.toml's headers as `papercuts serve` sends them (and Netlify would): embed pages may be
framed by any origin, every other path only by the site itself (issue 14)."""
from __future__ import annotations

import tomllib
import urllib.request

from papercuts.paths import PROJECT
from papercuts.publish.serve import headers_for, netlify_headers


def policies(header: str) -> list[dict[str, list[str]]]:
    """A Content-Security-Policy header as the browser reads it: ',' separates policies (each
    enforced), ';' separates directives."""
    out = []
    for policy in header.split(","):
        directives = {}
        for d in policy.split(";"):
            if d.split():
                directives[d.split()[0]] = d.split()[1:]
        out.append(directives)
    return out


def ancestors(headers: dict) -> list[list[str]]:
    """The frame-ancestors of every policy that sets one (all of them must allow a framer)."""
    return [p["frame-ancestors"] for p in policies(headers["Content-Security-Policy"]) if "frame-ancestors" in p]


def get(url: str) -> dict:
    with urllib.request.urlopen(url) as response:
        return dict(response.headers)


def test_the_site_refuses_to_be_framed_by_another_origin(server):
    for url in ("/", "/servers/", "/investigations/innodb-busy-wait-8030/",
                "/investigations/innodb-busy-wait-8030/dell32-rqps.vl.json"):
        headers = get(server + url)
        assert headers["X-Frame-Options"] == "SAMEORIGIN", url
        assert ancestors(headers) == [["'self'"]], (url, headers["Content-Security-Policy"])


def test_embed_pages_may_be_framed_by_any_origin_under_the_same_script_policy(server):
    headers = get(server + "/embed/investigations/innodb-busy-wait-8030/dell32-rqps/")
    assert "X-Frame-Options" not in headers
    assert ancestors(headers) == [["*"]]
    [site] = [p for p in policies(headers["Content-Security-Policy"]) if "script-src" in p]
    assert site["script-src"] == ["'self'"] and site["default-src"] == ["'self'"]
    assert "'unsafe-eval'" not in headers["Content-Security-Policy"]
    assert "Set-Cookie" not in headers


def test_every_published_path_but_embed_is_covered_by_a_rule_that_refuses_framing(site):
    """A new top-level folder or file without its rule in netlify.toml would be framable by any
    site: Netlify joins headers, so the catch-all cannot refuse framing without binding /embed/."""
    rules = netlify_headers()
    top = sorted(p.name for p in site.public.iterdir())
    assert "embed" in top and "servers" in top
    for name in top:
        path = f"/{name}/" if (site.public / name).is_dir() else f"/{name}"
        headers = headers_for(path, rules)
        if name == "embed":
            assert ancestors(headers) == [["*"]] and "X-Frame-Options" not in headers
        else:
            assert ancestors(headers) == [["'self'"]] and headers["X-Frame-Options"] == "SAMEORIGIN", path
        assert "script-src 'self'" in headers["Content-Security-Policy"], path
    assert ancestors(headers_for("/", rules)) == [["'self'"]]


def test_headers_set_by_several_rules_are_joined_as_netlify_joins_them():
    rules = [("/*", {"Content-Security-Policy": "default-src 'self'", "X-A": "1"}),
             ("/a/*", {"Content-Security-Policy": "frame-ancestors 'self'", "X-A": "1"})]
    assert headers_for("/a/b", rules) == {"Content-Security-Policy": "default-src 'self', frame-ancestors 'self'",
                                          "X-A": "1"}
    assert headers_for("/b", rules) == {"Content-Security-Policy": "default-src 'self'", "X-A": "1"}
    assert policies("default-src 'self', frame-ancestors 'self'") == [
        {"default-src": ["'self'"]}, {"frame-ancestors": ["'self'"]}]


def test_netlify_builds_give_hugo_the_sites_own_address():
    """Feeds, the sitemap and embed snippets need absolute URLs: a build with baseURL "/" wrote the
    Atom feed's ids and the sitemap's locations as /regressions/ and /campaigns/."""
    config = tomllib.loads((PROJECT / "netlify.toml").read_text())
    assert config["build"]["command"] == "HUGO_BASEURL=$URL make site"
    assert config["context"]["deploy-preview"]["command"] == "HUGO_BASEURL=$DEPLOY_PRIME_URL make site"
