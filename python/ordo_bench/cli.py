"""ordo-bench command line (the full suite arrives with the measurement issue)."""

from __future__ import annotations

import argparse
import sys

from . import demo, peers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ordo-bench")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("demo", help="put/get rates per ordering mode")
    sub.add_parser("peers", help="one-sided figures next to ucx_perftest and memcpy")
    args = parser.parse_args(argv)
    return demo.main() if args.cmd == "demo" else peers.main()


if __name__ == "__main__":
    sys.exit(main())
