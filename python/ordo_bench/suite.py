"""`ordo-bench run`: run the experiments of a suite for every implementation
found, write DIR/results.jsonl and DIR/run.json, then the report."""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from . import mpis
from .experiments import LAUNCHES, Experiment, Job, covers
from .runner import BenchError, build_dir, merge_launches, mpi_binary, run_mpi, run_ordo


@dataclass
class Step:
    experiment: str
    job: Job
    impl: str
    size: int | None


@dataclass
class Narrowing:
    """What --np, --sizes, --window, --pairs, --order and --nodes ask for."""
    np: int | None = None
    sizes: tuple[int, ...] | None = None
    window: int | None = None
    pairs: int | None = None
    orders: tuple[str, ...] | None = None
    launches: int | None = None          # launches per point (default: the suite's)
    nodes: int = 1                       # groups of ranks that share no memory
    launcher: str = "ordorun"            # what starts ordo's programs (runner.LAUNCHERS)


# Seconds one program may run for one point, per suite: a few times the
# longest point's length on a 2-core machine (--timeout overrides it).
STEP_TIMEOUT = {"quick": 60.0, "paper": 300.0, "full": 600.0}


# Programs whose --window / --pairs the narrowing options pass on; a job that
# is itself a point of a window sweep (Job.window) is kept or dropped instead,
# and so is a job whose ranks form pairs (fig2: --pairs P keeps np = 2P).
_TAKES_WINDOW = {"bw", "msgrate", "put_rate", "put_bw", "rma_sync", "regcost"}
_TAKES_PAIRS = {"halo"}
_PAIRS_ARE_RANKS = {"fig2"}


def _narrowed_out(job: Job, narrow: Narrowing) -> bool:
    if narrow.window and job.window and job.window != narrow.window:
        return True
    return bool(narrow.pairs and job.program in _PAIRS_ARE_RANKS and
                job.np != 2 * narrow.pairs)


def all_impls() -> tuple[str, ...]:
    """ordo and every MPI the benchmarks are built for."""
    return ("ordo", *mpis.available(build_dir()))


def impl_missing(impl: str, program: str) -> str | None:
    """Why impl cannot run program here, or None."""
    if impl == "ordo":
        exe = build_dir() / "bin" / program
        return None if exe.exists() else f"{exe} is not built (run make)"
    exe, launcher = mpi_binary(impl, program)
    if not launcher:
        return (f"no MPI named {impl} has builds here (built for: "
                f"{', '.join(mpis.available(build_dir())) or 'none'})")
    if shutil.which(launcher) is None:
        return f"{impl} is not installed (no {launcher})"
    if not exe.exists():
        return (f"{program} is not built for {impl} ({exe.name}: its compiler wrapper was "
                "missing at build time)")
    return None


def plan(experiments: list[Experiment], suite: str, impls: tuple[str, ...],
         narrow: Narrowing) -> tuple[list[Step], list[dict]]:
    """The steps to run and the skipped (experiment, impl, reason) entries,
    each once.  A job shared by two experiments (bw and bibw) runs once."""
    steps: list[Step] = []
    skipped: list[dict] = []
    seen: set = set()

    def skip(entry: dict) -> None:
        if entry not in skipped:
            skipped.append(entry)

    for e in experiments:
        if e.missing:
            skip({"experiment": e.id, "impl": None, "reason": e.missing})
            continue
        if narrow.nodes < e.nodes_min:
            skip({"experiment": e.id, "impl": None,
                  "reason": f"needs --nodes {e.nodes_min} or more (the network transport)"})
            continue
        for job in e.jobs:
            if suite not in job.suites or _narrowed_out(job, narrow):
                continue
            for impl in impls:
                if not covers(job.impls, impl):
                    # another job of the experiment may cover impl (per-algorithm jobs)
                    if not any(covers(j.impls, impl) for j in e.jobs):
                        built = impl != "ordo" and mpi_binary(impl, job.program)[0].exists()
                        why = (f"ordo's own series ({impl}'s {job.program} runs in the "
                               "experiments that compare libraries)" if built else
                               f"no {impl} build of {job.program} is written")
                        skip({"experiment": e.id, "impl": impl, "program": job.program,
                              "reason": why})
                    continue
                why = impl_missing(impl, job.program)
                if why:
                    skip({"experiment": e.id, "impl": impl, "reason": why})
                    continue
                sizes = (narrow.sizes or job.sizes.get(suite, ())) if job.sizes else (None,)
                for size in sizes:
                    key = (job.program, job.options(suite), job.env, job.np, impl, size,
                           job.label, job.nodes)
                    if key in seen:
                        continue
                    seen.add(key)
                    steps.append(Step(e.id, job, impl, size))
    return steps, skipped


def _launch_once(step: Step, suite: str, narrow: Narrowing, timeout: float) -> list[dict]:
    """One launch of the step's program: its records, one per point."""
    job = step.job
    args = list(job.options(suite))
    if step.size is not None:
        args += ["--size", str(step.size)]
    if narrow.window and job.program in _TAKES_WINDOW and not job.window:
        args += ["--window", str(narrow.window)]
    if narrow.pairs and job.program in _TAKES_PAIRS:
        args += ["--pairs", str(narrow.pairs)]
    np = narrow.np or job.np
    if job.program in _PAIRS_ARE_RANKS and narrow.np and narrow.np % 2:
        raise BenchError(f"{job.program} pairs its ranks: --np {narrow.np} is odd")
    if step.impl == "ordo":
        return run_ordo(job.program, *args, np=job.np if job.nodes else np, env=dict(job.env),
                        timeout=timeout, nodes=job.nodes or narrow.nodes,
                        launcher=narrow.launcher)
    return run_mpi(step.impl, job.program, *args, np=job.np if job.nodes else np,
                   env=dict(job.mpi_env), timeout=timeout, nodes=job.nodes or narrow.nodes,
                   launcher="srun" if narrow.launcher == "srun" else None)


def _merge(step: Step, batches: list[list[dict]], narrow: Narrowing) -> list[dict]:
    """The step's records from all its launches, trials pooled."""
    recs = merge_launches(batches)
    if step.job.label:
        for r in recs:
            r["experiment"] = step.experiment
            r["variant"] = f"{r['variant']}, {step.job.label}"
    if narrow.orders:
        recs = [r for r in recs if r.get("order") is None or r["order"] in narrow.orders]
    return recs


def default_out() -> Path:
    return Path("results") / time.strftime("%Y%m%d-%H%M%S")


def run(experiments: list[Experiment], suite: str = "quick",
        impls: tuple[str, ...] | None = None, out: Path | None = None,
        narrow: Narrowing | None = None, console=None, timeout: float | None = None) -> Path:
    """Run the steps with a progress bar; a failing step is recorded (its
    whole stderr kept) and the run goes on; a step past its time limit is
    killed with all its processes.  results/latest points at the run only
    when it measured something and nothing failed.  Returns the output
    directory."""
    narrow = narrow or Narrowing()
    impls = impls or all_impls()
    timeout = timeout or STEP_TIMEOUT.get(suite, 120.0)
    out = out or default_out()
    out.mkdir(parents=True, exist_ok=True)
    steps, skipped = plan(experiments, suite, impls, narrow)
    errors: list[dict] = []
    records: list[dict] = []
    started = time.time()
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    columns = (TextColumn("{task.description:<28}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as bar:
        # Launches are interleaved: round k launches every step once, so a
        # point's launches are spread over the whole run.  The machine's state
        # drifts over minutes (another tenant, frequency, memory placement);
        # launching a point's programs back to back put all of them in one
        # state, and two runs then disagreed beyond intervals that could not
        # see the drift.  Interleaved, every point samples the same states
        # and the intervals cover them.
        launches = narrow.launches or LAUNCHES.get(suite, 1)
        task = bar.add_task("starting", total=len(steps) * launches)
        batches: list[list[list[dict]]] = [[] for _ in steps]
        failed: set[int] = set()
        spent: dict[str, float] = {}       # seconds of launches, per library
        for k in range(launches):
            for i, step in enumerate(steps):
                if i in failed:
                    continue
                label = f"{step.experiment} {step.impl}" + \
                    (f" {step.size} B" if step.size else "")
                bar.update(task, description=f"{label} [{k + 1}/{launches}]")
                t0 = time.time()
                try:
                    batches[i].append(_launch_once(step, suite, narrow, timeout))
                    bar.advance(task)
                except BenchError as e:
                    # a point that failed once is recorded as failed and not
                    # launched again: a hang would otherwise cost its time
                    # limit in every round
                    errors.append({"experiment": step.experiment, "impl": step.impl,
                                   "program": step.job.program, "size": step.size,
                                   "launch": k + 1, "error": str(e)})
                    failed.add(i)
                    bar.advance(task, launches - k)
                spent[step.impl] = spent.get(step.impl, 0.0) + time.time() - t0
        for i, step in enumerate(steps):
            if i not in failed:
                got = _merge(step, batches[i], narrow)
                for r in got:
                    r["suite"] = suite
                records += got
    if any(e.id == "loggp" for e in experiments):
        from . import loggp
        from .runner import validate
        records += [validate(r) for r in loggp.records_of(loggp.fit(records), suite)]
    with open(out / "results.jsonl", "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    manifest = {
        "suite": suite, "impls": list(impls),
        "experiments": [e.id for e in experiments],
        "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
        "seconds": round(time.time() - started, 1),
        "seconds_per_impl": {k: round(v, 1) for k, v in spent.items()},
        "cores": os.cpu_count(), "step_timeout_s": timeout,
        "launches": narrow.launches or LAUNCHES.get(suite, 1), "launch_order": "interleaved",
        "skipped": skipped, "errors": errors,
        "narrowing": {k: v for k, v in vars(narrow).items() if v is not None},
    }
    (out / "run.json").write_text(json.dumps(manifest, indent=2) + "\n")
    latest = out.parent / "latest"
    if errors or not records:
        return out          # the last good run stays the latest
    if out.parent.name == "results" or latest.is_symlink():
        if latest.is_symlink() or latest.exists():
            latest.unlink()
        latest.symlink_to(out.name)
    return out
