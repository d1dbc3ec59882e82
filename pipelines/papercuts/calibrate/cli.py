"""The `calibrate` subcommand: arguments, then measure, write and check."""
from __future__ import annotations

import sys
from pathlib import Path

from ..paths import Paths


def cmd_calibrate(args) -> int:
    from ..build import validate
    from .run import calibrate

    paths = Paths.make(data=args.data)
    folder = calibrate(paths, args.server, args.label, Path(args.calibrations) if args.calibrations else None,
                       args.contributor, args.portable, reps=args.reps, max_delay=args.max_delay,
                       multiplier=args.multiplier, n=args.spin_wait_delay)
    _, problems = validate(paths)
    for p in problems.sorted():
        print(p.render())
    if problems.errors:
        print(f"papercuts: error: {paths.rel(folder)} was written but papercuts check fails", file=sys.stderr)
        return 1
    if not folder.resolve().is_relative_to(paths.data):
        print(f"wrote {paths.rel(folder)} outside {paths.rel(paths.data)}: move it to "
              f"{paths.rel(paths.data / 'calibrations')}/ to publish it")
        return 0
    print(f"papercuts check passes; commit {paths.rel(folder)} (and any new row in "
          f"{paths.rel(paths.data / 'servers.csv')} or sources.csv) and open a pull request")
    return 0


def add_parser(sub) -> None:
    c = sub.add_parser("calibrate", help="measure this machine's ut_delay, PAUSE and interval-draw costs "
                                         "into a calibration folder")
    c.add_argument("--server", help="server id in data/servers.csv (added when new; default: the host name)")
    c.add_argument("--label", default="calibrate",
                   help="last part of the folder name <date>-<server>-<label> (default: calibrate)")
    c.add_argument("--data", help="data directory (default: data/)")
    c.add_argument("--out", dest="calibrations", metavar="DIR",
                   help="write the calibration folder into DIR (default: DATA/calibrations/)")
    c.add_argument("--contributor", help="who ran it (default: git user.name)")
    c.add_argument("--reps", type=int, default=11, help="repetitions of every timing, 1 to 101 (default: 11)")
    c.add_argument("--max-delay", type=int, default=6, help="time ut_delay(X) for X = 0..MAX_DELAY (default: 6)")
    c.add_argument("--multiplier", type=int, default=50,
                   help="PAUSE instructions per delay unit (default: 50, as InnoDB)")
    c.add_argument("--spin-wait-delay", type=int, default=6,
                   help="N of the interval draws [0, N) and [0, N] (innodb_spin_wait_delay; default: 6)")
    c.add_argument("--portable", action="store_true",
                   help="build the probe without PAUSE, rdtsc and crc32, as on a CPU that lacks them")
    c.set_defaults(func=cmd_calibrate)
