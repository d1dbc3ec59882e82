"""`papercuts`: check data, build the site, serve it, vendor bundles, benchmark the stages."""
from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from .calibrate import cli as calibrate_cli
from .paths import PROJECT, Paths
from .problems import UserError, printable

# Where --data and --out go when not given: this checkout's folders, wherever papercuts is run from.
DATA_DEFAULT = f"default: this checkout's data/, {PROJECT / 'data'}"
OUT_DEFAULT = f"default: this checkout's public/, {PROJECT / 'public'}"


def _paths(args) -> Paths:
    return Paths.make(data=getattr(args, "data", None), out=getattr(args, "out", None))


def cmd_check(args) -> int:
    from .build import validate

    paths = _paths(args)
    _, problems = validate(paths)
    for p in problems.sorted():
        print(p.github() if args.format == "github" else p.render())
    n_err, n_warn = len(problems.errors), len(problems.items) - len(problems.errors)
    print(f"{paths.rel(paths.data)}: {n_err} error(s), {n_warn} warning(s)", file=sys.stderr)
    return 1 if n_err else 0


def cmd_build(args) -> int:
    from .build import Timings, build

    paths = _paths(args)
    if args.no_images:
        os.environ["PAPERCUTS_IMAGES"] = "0"
    timings = Timings(say=lambda line: print(line, file=sys.stderr, flush=True),
                      bar=sys.stderr if sys.stderr.isatty() else None)
    problems = build(paths, timings)
    for p in problems.sorted():
        print(p.render(), file=sys.stderr)
    print(f"built {timings.pages} pages into {paths.rel(paths.public)} ({timings.summary()})", file=sys.stderr)
    return 0


def cmd_serve(args) -> int:
    from .publish.serve import serve

    serve(_paths(args).public, args.host, args.port)
    return 0


def cmd_vendor(args) -> int:
    from .publish.vendor import vendor

    vendor(Paths.make())
    return 0


def cmd_bench(args) -> int:
    if args.scale:
        from .scale_bench import scale_bench

        scale_bench(args.scale)
        return 0
    from .bench import bench

    bench(args.repeat, args.servers)
    return 0


def cmd_import(args) -> int:
    from pathlib import Path

    from .importer import import_mytools

    paths = _paths(args)
    problems = import_mytools(Path(args.src), paths.data, args.server, args.campaign, args.source,
                              args.threads, args.title, args.engine, args.notes, args.config)
    # The warnings of the campaign or about it (an older campaign imported after the one that repeats
    # it is named in the later one's warning); the data folder's others, which every import repeated,
    # are counted.
    mine = paths.rel(paths.data / "campaigns" / args.campaign)
    named = re.compile(rf"(?<![\w-]){re.escape(args.campaign)}(?![\w-])")
    shown = [p for p in problems.sorted() if p.severity == "error" or p.path == mine
             or p.path.startswith(mine + "/") or named.search(p.message)]
    for p in shown:
        print(p.render())
    n_err = len(problems.errors)
    n_warn = sum(p.severity != "error" for p in shown)
    elsewhere = len(problems.sorted()) - len(shown)
    also = (f"; {elsewhere} warning(s) elsewhere in {paths.rel(paths.data)}, which papercuts check lists"
            if elsewhere else "")
    print(f"{mine}: {n_err} error(s), {n_warn} warning(s){also}", file=sys.stderr)
    return 1 if n_err else 0


def cmd_export(args) -> int:
    from .export import export

    target, rows = export(_paths(args), args.table, args.out)
    print(f"wrote {rows} {args.table} rows to {target}", file=sys.stderr)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="papercuts", description=__doc__)
    p.add_argument("--traceback", action="store_true", help="show Python tracebacks for errors")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="validate a data directory and print every problem")
    c.add_argument("--data", help=f"data directory ({DATA_DEFAULT})")
    c.add_argument("--format", choices=("text", "github"), default="text",
                   help="github prints GitHub Actions annotations")
    c.set_defaults(func=cmd_check)
    b = sub.add_parser("build", help="validate, load DuckDB, derive, render and run Hugo")
    b.add_argument("--data", help=f"data directory ({DATA_DEFAULT}; content/'s investigations are built "
                                  "with that data/ only, not with another folder)")
    b.add_argument("--out", help=f"publish directory ({OUT_DEFAULT})")
    b.add_argument("--no-images", action="store_true",
                   help="skip the SVG/PNG images of the charts (a quick look; the published site has them)")
    b.set_defaults(func=cmd_build)
    s = sub.add_parser("serve", help="serve the built site with the production headers")
    s.add_argument("--out", help=f"publish directory ({OUT_DEFAULT})")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=1313)
    s.set_defaults(func=cmd_serve)
    v = sub.add_parser("vendor", help="fetch the pinned Vega bundles and check their SHA-256")
    v.set_defaults(func=cmd_vendor)
    m = sub.add_parser("bench", help="time each stage on the shipped and synthetic data")
    m.add_argument("--repeat", type=int, default=3, help="builds per dataset (median is shown)")
    m.add_argument("--servers", type=int, default=20, help="synthetic servers to add")
    m.add_argument("--scale", type=int, default=0, metavar="N",
                   help="instead: the whole build on SYNTHETIC data ×N (×100: 10^6 rows), full, no-change and "
                        "one-file-added builds against the DuckDB and Hugo floors")
    m.set_defaults(func=cmd_bench)
    i = sub.add_parser("import", help="import a results archive as a campaign (its files kept byte for byte)")
    i.add_argument("kind", choices=("mytools",), help="the archive's format: mytools (Small Datum bench/arc/)")
    i.add_argument("src", metavar="SRC", help="one server's folder of the archive, or one of its dop<T>/ folders")
    i.add_argument("--data", help=f"data directory ({DATA_DEFAULT})")
    i.add_argument("--server", required=True, help="a server id or alias from servers.csv")
    i.add_argument("--campaign", required=True, help="the new campaign's id, YYYY-MM-DD-name")
    i.add_argument("--source", help="a source id from sources.csv (default: a stub row to fill in)")
    i.add_argument("--threads", type=int, help="the thread count of tables that do not say theirs")
    i.add_argument("--title", help="the campaign's title")
    i.add_argument("--engine", help="the storage engine when the build name does not tell (fbmysql)")
    i.add_argument("--config", help="the config of o.met tables that name none (sum_met_dop.sh editions)")
    i.add_argument("--notes", help="what else to say in campaign.toml notes (e.g. how the server is known)")
    i.set_defaults(func=cmd_import)
    e = sub.add_parser("export", help="write a derived table as CSV or Parquet for other tools")
    exports = sorted(p.stem for p in (Path(__file__).parent / "sql" / "exports").glob("*.sql"))  # export.TABLES
    e.add_argument("table", help=", ".join(exports))
    e.add_argument("--data", help=f"data directory ({DATA_DEFAULT})")
    e.add_argument("--out", required=True,
                   help="a .csv or .parquet file, or a folder ending in / for Parquet partitioned by server and DBMS")
    e.set_defaults(func=cmd_export)
    calibrate_cli.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    with _interrupts() as interrupted:
        try:
            code = args.func(args)
        except UserError as e:
            if args.traceback:
                raise
            if interrupted:  # a worker that Ctrl-C stopped first is not "killed (out of memory?)"
                return 130
            for p in e.problems:
                print(p.render(), file=sys.stderr)
            # its own lines kept (Hugo's errors), each printable: it may quote a file's name or text
            print("papercuts: error: " + "\n".join(map(printable, str(e).split("\n"))), file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            return 130
        except Exception:
            # Ctrl-C reaches a command as whatever was running took it: DuckDB's "Query
            # interrupted", a pool whose workers it stopped first. Said as an interrupt (130).
            if interrupted and not args.traceback:
                return 130
            raise
        return 130 if interrupted else code  # an interrupt a library swallowed is no success either


@contextmanager
def _interrupts():
    """A list that holds True once SIGINT has come while the block runs; the handler that was in
    place (Python's, raising KeyboardInterrupt) still runs, and is back after the block."""
    came: list[bool] = []
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield came  # ignored, or not this thread's to handle: as it was
        return

    def handler(signum, frame):
        came.append(True)
        previous(signum, frame)
    signal.signal(signal.SIGINT, handler)
    try:
        yield came
    finally:
        signal.signal(signal.SIGINT, previous)


if __name__ == "__main__":
    sys.exit(main())
