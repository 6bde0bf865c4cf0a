"""The experiments of the papers in ../shared/seeds/, each with the programs
that measure it, per suite.  Experiment ids are stable names other tools
rely on: add, never rename.

A job is one benchmark program run once per size of its sweep, for every
implementation it is built for; an experiment whose programs are not
written yet carries the reason instead, and a run lists it as skipped."""

from __future__ import annotations

from dataclasses import dataclass, field

SUITES = ("quick", "paper", "full")
IMPLS = ("ordo", "openmpi", "mpich")

# Size sweeps (bytes) per suite.
_SMALL = {"quick": (8, 1024), "paper": (8, 64, 512, 4096), "full": (8, 64, 512, 4096, 32768)}
_WIDE = {"quick": (8, 4096, 1 << 20),
         "paper": tuple(8 << (2 * i) for i in range(10)),          # 8 B .. 2 MiB, x4
         "full": tuple(8 << i for i in range(20))}                 # 8 B .. 4 MiB, x2


@dataclass(frozen=True)
class Job:
    program: str
    args: dict[str, tuple[str, ...]]                 # suite -> options
    sizes: dict[str, tuple[int, ...]] | None = None  # suite -> --size sweep; None: none
    impls: tuple[str, ...] = IMPLS                   # builds of the program that exist
    env: tuple[tuple[str, str], ...] = ()            # settings for the ordo build
    np: int = 2

    def options(self, suite: str) -> tuple[str, ...]:
        return self.args.get(suite, self.args.get("paper", ()))


@dataclass(frozen=True)
class Experiment:
    id: str
    title: str
    figure: str                                      # what of the papers it reproduces
    jobs: tuple[Job, ...] = ()
    missing: str | None = None                       # why it cannot run yet
    suites: tuple[str, ...] = SUITES                 # the suites it belongs to
    notes: tuple[str, ...] = field(default_factory=tuple)


def _iters(quick: str, paper: str, trials_quick: str = "3",
           trials_paper: str = "7") -> dict[str, tuple[str, ...]]:
    return {"quick": ("--iters", quick, "--trials", trials_quick),
            "paper": ("--iters", paper, "--trials", trials_paper),
            "full": ("--iters", paper, "--trials", "11")}


def _per_alg(setting: str, algs: tuple[str, ...], job: Job) -> tuple[Job, ...]:
    """The ordo build once per forced algorithm; MPI builds once."""
    jobs = [Job(job.program, job.args, job.sizes, ("ordo",), ((setting, a),), job.np)
            for a in algs]
    mpis = tuple(i for i in job.impls if i != "ordo")
    if mpis:
        jobs.append(Job(job.program, job.args, job.sizes, mpis, (), job.np))
    return tuple(jobs)


_NOT_YET = "its benchmark program is not written yet"
_BW = Job("bw", _iters("200", "2000"), _WIDE)   # emits bw and bibw
_PUT_BW = Job("put_bw", {"quick": ("--iters", "20", "--trials", "3"),
                         "paper": ("--iters", "50", "--trials", "7")},
              {"quick": (1 << 20,), "paper": (4096, 65536, 1 << 20),
               "full": (4096, 65536, 1 << 20, 4 << 20)}, ("ordo",))

EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment("latency", "Two-sided latency (ping-pong, RTT/2)",
               "OSU latency; IPDPS'14 two-sided baseline",
               (Job("latency", _iters("20000", "100000"), _WIDE),)),
    Experiment("multi_latency", "Multi-pair two-sided latency",
               "OSU multi-pair latency",
               (Job("latency", _iters("5000", "50000"), {"quick": (8,), "paper": (8, 4096),
                                                          "full": (8, 4096)}, np=4),),
               suites=("paper", "full"),
               notes=("4 ranks: oversubscribed on a machine with fewer than 4 cores",)),
    Experiment("put_latency", "One-sided put latency (put ping-pong, as ucp_put_lat)",
               "ucx_perftest -t ucp_put_lat",
               (Job("put_latency", _iters("20000", "100000"), _SMALL, ("ordo",)),),
               notes=("MPI builds of the one-sided programs are not written yet",)),
    Experiment("bw", "Unidirectional bandwidth (windowed), two-sided and one-sided",
               "OSU bandwidth; IPDPS'14 Fig. 9", (_BW, _PUT_BW)),
    Experiment("bibw", "Bidirectional bandwidth", "OSU bidirectional bandwidth", (_BW,),
               notes=("measured by the bw program, with bw",)),
    Experiment("msgrate", "Message rate, one- and two-sided, per ordering mode",
               "PGAS'14 Fig. 1; IPDPS'14 ordering modes",
               (Job("msgrate", _iters("5000", "20000"), _SMALL),
                Job("put_rate", _iters("5000", "20000"), _SMALL, ("ordo",)))),
    Experiment("fig2", "Windowed bidirectional sweep: size x pairs x window x ordering",
               "IPDPS'14 Fig. 2", missing=_NOT_YET),
    Experiment("rma_sync", "Put/get latency and bandwidth per synchronisation mode",
               "IPDPS'14 synchronisation modes", missing=_NOT_YET),
    Experiment("atomics", "Atomics latency (fetch-add, compare-swap)",
               "IPDPS'14 atomics", missing=_NOT_YET),
    Experiment("regcost", "Registered vs unregistered target; creation cost vs concurrency",
               "IPDPS'14 Figs. 6 and 9", missing=_NOT_YET),
    Experiment("overlap", "Overlap of communication and computation",
               "PGAS'14 overlap formula", missing=_NOT_YET),
    Experiment("halo", "Halo exchange, 2/4/8 partners, every RMA synchronisation",
               "Gropp & Thakur, EuroPVM/MPI'05, Figs. 1-3",
               (Job("halo", {"quick": ("--iters", "1000", "--trials", "3"),
                             "paper": ("--iters", "4000", "--trials", "9"),
                             "full": ("--iters", "8000", "--trials", "11")},
                    {"quick": (8, 1024), "paper": (8, 256, 4096, 16384),
                     "full": (8, 64, 256, 1024, 4096, 16384)}),)),
    Experiment("barrier", "Barrier latency per algorithm",
               "Open MPI one-sided paper, Sec. V (atomic vs message barrier)",
               _per_alg("ORDO_COLL_BARRIER", ("dissemination", "tree", "shm"),
                        Job("barrier", {"quick": ("--iters", "200000", "--trials", "3"),
                                        "paper": ("--iters", "1000000", "--trials", "5"),
                                        "full": ("--iters", "1000000", "--trials", "7")}))),
    Experiment("alltoall", "All-to-all, two-sided pairwise vs one-sided put",
               "Open MPI one-sided paper (put-based alltoall)",
               _per_alg("ORDO_COLL_ALLTOALL", ("pairwise", "put"),
                        Job("alltoall", _iters("500", "2000"),
                            {"quick": (8, 4096), "paper": (8, 512, 4096, 32768),
                             "full": (8, 64, 512, 4096, 32768)}))),
    Experiment("transpose", "FT-like transpose: alltoall vs one-sided gets",
               "PGAS'14 FT", missing=_NOT_YET),
    Experiment("stream", "STREAM copy/scale/add/triad over one-sided",
               "PGAS'14 STREAM", missing=_NOT_YET),
    Experiment("loggp", "LogGP fit (L, o, g, G) from latency and bandwidth",
               "LogGP model", missing="the fit is not written yet"),
)

BY_ID = {e.id: e for e in EXPERIMENTS}


def select(ids: list[str] | None, suite: str) -> list[Experiment]:
    """The experiments named (all of the suite's when none), in order;
    an unknown id is an error naming the known ones."""
    if ids:
        unknown = [i for i in ids if i not in BY_ID]
        if unknown:
            raise KeyError(f"unknown experiment(s) {', '.join(unknown)}; known: "
                           f"{', '.join(BY_ID)}")
        return [BY_ID[i] for i in ids]
    return [e for e in EXPERIMENTS if suite in e.suites]
