"""ordo-bench: run the paper experiments for ordo and the installed MPIs,
draw the report, compare runs, list experiments."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import demo, mpis, peers
from .experiments import EXPERIMENTS, ORDERS, SUITES, select
from .runner import LAUNCHERS, build_dir


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {v}")
    return v


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 s, not {text}")
    return v


def _ints(text: str) -> tuple[int, ...]:
    """Message sizes in bytes: whole numbers of at least 1, comma-separated."""
    sizes = tuple(_positive(x) for x in text.split(",") if x)
    if not sizes:
        raise argparse.ArgumentTypeError("expected at least one size")
    return sizes


def _orders(text: str) -> tuple[str, ...]:
    orders = tuple(x for x in text.split(",") if x)
    bad = [o for o in orders if o not in ORDERS]
    if bad or not orders:
        raise argparse.ArgumentTypeError(
            f"unknown ordering mode(s) {', '.join(bad) or '(none)'}; known: {', '.join(ORDERS)}")
    return orders


def _print_table(console, title: str, head: list[str], rows: list[list[str]]) -> None:
    from rich.table import Table
    console.print(f"[bold]{title}[/bold]")
    t = Table()
    for h in head:
        t.add_column(h)
    for row in rows:
        t.add_row(*row)
    console.print(t)


def cmd_list(_args, console) -> int:
    rows = []
    for e in EXPERIMENTS:
        state = f"skipped: {e.missing}" if e.missing else ", ".join(
            sorted({j.program for j in e.jobs}))
        rows.append([e.id, e.figure, "/".join(e.suites), state])
    _print_table(console, "Experiments", ["id", "reproduces", "suites", "programs"], rows)
    return 0


def cmd_run(args, console) -> int:
    from .suite import Narrowing, run
    try:
        exps = select(args.experiments, args.suite, args.nodes)
    except KeyError as e:
        console.print(f"ordo-bench: {e.args[0]}")
        return 2
    try:
        named = _named_mpis(args, console)
    except mpis.MpiError as e:
        console.print(f"ordo-bench: {e}")
        return 2
    known = ("ordo", *mpis.available(build_dir()))
    impls = tuple(i for i in args.impl.split(",") if i) if args.impl else known
    if args.impl is None and named:
        impls = ("ordo", *named)   # --mpi alone: ordo next to the MPIs named
    bad = [i for i in impls if i not in known]
    if bad:
        console.print(f"ordo-bench: unknown --impl {', '.join(bad)}; known: {', '.join(known)}")
        return 2
    narrow = Narrowing(np=args.np, sizes=args.sizes, window=args.window, pairs=args.pairs,
                       orders=args.order, launches=args.launches, nodes=args.nodes,
                       launcher=args.launcher)
    out = run(exps, args.suite, impls, Path(args.out) if args.out else None, narrow, console,
              timeout=args.timeout)
    measured = (out / "results.jsonl").read_text().strip()
    failed = _report(out, console)
    if not measured:
        console.print(f"ordo-bench: nothing was measured: every experiment was skipped or "
                      f"failed (see {out / 'run.json'})")
        return 1
    return 1 if failed else 0


def _named_mpis(args, console) -> list[str]:
    """--mpi NAME=/path/to/mpicc: build the benchmarks with that wrapper
    (CMake's ORDO_BENCH_MPIS gains the entry, the build dir is rebuilt) and
    run them under the launcher beside it, or --mpirun's."""
    names = []
    for spec in args.mpi or ():
        name, sep, wrapper = spec.partition("=")
        if not sep or not name or not wrapper:
            raise mpis.MpiError(f"--mpi {spec}: expected NAME=/path/to/mpicc")
        wrapper = str(Path(wrapper).expanduser().absolute())
        if args.mpirun:
            mpis.use_launcher(name, str(Path(args.mpirun).expanduser().absolute()))
        mpis.describe(name, wrapper, str(Path(args.mpirun).expanduser().absolute())
                      if args.mpirun else None)   # refuse before building
        names.append((name, wrapper))
    if args.mpirun and not names:
        raise mpis.MpiError("--mpirun goes with --mpi NAME=/path/to/mpicc")
    if names:
        build_for(names, console)
    return [n for n, _ in names]


def build_for(named: list[tuple[str, str]], console) -> None:
    """Add NAME=wrapper entries to the build's ORDO_BENCH_MPIS and build."""
    import re
    import subprocess
    build = build_dir()
    cache = build / "CMakeCache.txt"
    if not cache.exists():
        raise mpis.MpiError(f"{build} is not a CMake build directory (run make first)")
    m = re.search(r"^ORDO_BENCH_MPIS:STRING=(.*)$", cache.read_text(), re.M)
    entries = [e for e in (m.group(1) if m else "auto").split(";") if e]
    for name, wrapper in named:
        entries = [e for e in entries if e.split("=", 1)[0] != name] + [f"{name}={wrapper}"]
    console.print(f"ordo-bench: building the benchmarks for {', '.join(n for n, _ in named)}")
    for cmd in (["cmake", "-S", str(Path(__file__).resolve().parents[2]), "-B", str(build),
                 f"-DORDO_BENCH_MPIS={';'.join(entries)}"],
                ["cmake", "--build", str(build), "--target", "mpi_bench"]):
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise mpis.MpiError(f"building for {', '.join(n for n, _ in named)} failed:\n"
                                f"{(res.stdout + res.stderr).strip()[-3000:]}")


def _report(out: Path, console) -> int:
    """Write the report of out and print it: machine, summary, failures,
    claims, LogGP and an OSU-style table per experiment.  Returns the
    number of failed points."""
    from .report import write
    tables = write(out)
    console.print(f"Machine: {tables['machine']}")
    console.print(tables["method"], markup=False)
    if tables["warning"]:
        console.print(f"[yellow]Warning:[/yellow] {tables['warning']}")
    for title, head, rows in tables["osu"]:
        _print_table(console, title, head, rows)
    if tables["loggp"][1]:
        _print_table(console, "LogGP parameters", *tables["loggp"])
    _print_table(console, "Claims of the papers", *tables["claims"])
    if tables["invariant"][1]:
        _print_table(console, "More freedom is never slower (pairs per transport)",
                     *tables["invariant"])
    if tables["violations"][1]:
        _print_table(console, "More freedom measured SLOWER", *tables["violations"])
    _print_table(console, "Summary: median [95% CI]", *tables["summary"])
    for what, err, tail in tables["errors"]:
        console.print(f"[red]failed[/red] {what}: {err}")
        if tail:
            console.print(tail, markup=False, highlight=False)
    console.print(f"{len(tables['skipped'])} skipped (see the report). "
                  f"Report: {out / 'report.html'} and {out / 'report.md'}")
    return len(tables["errors"])


def cmd_report(args, console) -> int:
    """Redraw a saved run: 0 once the report is written, whatever the run's
    own failures (the report lists them)."""
    try:
        _report(Path(args.dir), console)
    except FileNotFoundError as e:
        console.print(f"ordo-bench: {e}")
        return 2
    return 0


def cmd_compare(args, console) -> int:
    from .report import compare, compare_claims
    try:
        head, rows = compare(Path(args.a), Path(args.b))
    except FileNotFoundError as e:
        console.print(f"ordo-bench: {e}")
        return 2
    if not rows:
        console.print("ordo-bench: neither run measured anything")
        return 1
    _print_table(console, f"A = {args.a}, B = {args.b}", head, rows)
    _print_table(console, "Claims of the papers in both runs", *compare_claims(Path(args.a),
                                                                                Path(args.b)))
    return 0


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console
    parser = argparse.ArgumentParser(prog="ordo-bench", description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a suite and write the report")
    r.add_argument("experiments", nargs="*", metavar="EXPERIMENT")
    r.add_argument("--suite", choices=SUITES, default="quick")
    r.add_argument("--impl", help="what to run, comma-separated: ordo and MPIs by the names "
                                   "their benchmarks are built for (default: all of them)")
    r.add_argument("--mpi", action="append", metavar="NAME=/path/to/mpicc",
                   help="an MPI to measure, by its compiler wrapper: the benchmarks are built "
                        "with it as <program>.NAME and run under the mpirun or mpiexec beside "
                        "it (repeatable)")
    r.add_argument("--mpirun", help="the launcher for the MPI named with --mpi, where it is not "
                                    "beside its compiler wrapper")
    r.add_argument("--np", type=_positive,
                   help="ranks for every program (default: each its own)")
    r.add_argument("--out", help="output directory (default results/<timestamp>)")
    r.add_argument("--sizes", type=_ints, help="message sizes in bytes, comma-separated")
    r.add_argument("--window", type=_positive)
    r.add_argument("--pairs", type=_positive)
    r.add_argument("--order", type=_orders, help="ordering modes to keep: strict,default,relaxed")
    r.add_argument("--launches", type=_positive,
                   help="launches of each program per point, their trials pooled (default: "
                        "3 quick, 10 paper and full)")
    r.add_argument("--nodes", type=_positive, default=1,
                   help="split every job's ranks into this many groups that share no memory "
                        "(ordorun --nodes): ordo over its network transport, the MPIs forced "
                        "onto TCP")
    r.add_argument("--launcher", choices=LAUNCHERS, default="ordorun",
                   help="what starts ordo's programs: ordorun, Open MPI's mpirun (PMIx), "
                        "MPICH's mpiexec (PMI-1) or srun --mpi=pmix on a single-node Slurm "
                        "started per launch (root); the MPIs run under their own mpirun, "
                        "or under srun with srun")
    r.add_argument("--timeout", type=_seconds,
                   help="seconds one program may run for one point before it and its ranks "
                        "are killed (default: 60 quick, 300 paper, 600 full)")
    rep = sub.add_parser("report", help="redraw the report of a saved run")
    rep.add_argument("dir")
    c = sub.add_parser("compare", help="two runs side by side with ratios")
    c.add_argument("a")
    c.add_argument("b")
    sub.add_parser("list", help="the experiments and the paper figure each reproduces")
    sub.add_parser("demo", help="put/get rates per ordering mode")
    sub.add_parser("peers", help="ordo next to ucx_perftest, Open MPI and memcpy")
    args = parser.parse_args(argv)
    # a pipe or a log file gets wide tables rather than rich's 80 columns
    console = Console() if sys.stdout.isatty() else Console(width=200)
    if args.cmd == "demo":
        return demo.main()
    if args.cmd == "peers":
        return peers.main()
    return {"run": cmd_run, "report": cmd_report, "compare": cmd_compare,
            "list": cmd_list}[args.cmd](args, console)


if __name__ == "__main__":
    sys.exit(main())
