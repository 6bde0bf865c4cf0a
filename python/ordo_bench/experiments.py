"""The experiments of the papers (docs/benchmarks.md lists them), each with the programs
that measure it, per suite.  Experiment ids are stable names other tools
rely on: add, never rename.

A job is one benchmark program run once per size of its sweep, for every
implementation it is built for; an experiment whose programs are not
written yet carries the reason instead, and a run lists it as skipped."""

from __future__ import annotations

from dataclasses import dataclass, field

from .mpis import ORDO_MPI

SUITES = ("quick", "paper", "full")
ORDERS = ("strict", "default", "relaxed")              # ordo's ordering modes
# A job's builds: "ordo", and MPI for every MPI the benchmarks are built
# for (mpis.py: Debian's, the PyPI ones in .peers/, any the user names), or
# one MPI by name where only it has a build (Open MPI's OpenSHMEM).
MPI = "mpi"
IMPLS = ("ordo", MPI)


def covers(impls: tuple[str, ...], impl: str) -> bool:
    """Whether a job with these builds runs impl."""
    return impl in impls or (MPI in impls and impl not in ("ordo", "ordo-shmem"))

# Size sweeps (bytes) per suite.  Every suite holds the sizes the claims of
# the papers are stated at (report.CLAIM_SIZES): 8 B and 2 KiB message
# rates, 2 MiB bandwidth.
_SMALL = {"quick": (8, 2048), "paper": (8, 64, 512, 2048, 4096),
          "full": (8, 64, 512, 2048, 4096, 32768)}
_WIDE = {"quick": (8, 4096, 2 << 20),
         "paper": tuple(8 << (2 * i) for i in range(10)),          # 8 B .. 2 MiB, x4
         "full": tuple(8 << i for i in range(20))}                 # 8 B .. 4 MiB, x2

# Trials per point: each is one whole measurement (warm-up, then the timed
# iterations), and the report's confidence intervals come from their
# spread.  They are spread over several launches of the program (LAUNCHES),
# since much of the difference between two runs is fixed when a program
# starts; TRIALS is per launch: quick 3 x 1 = 3 trials (its report says its
# intervals are wide), paper 10 x 1 = 10, full 10 x 2 = 20.  Five launches
# of two trials were too few: two back-to-back paper runs disagreed on 2 of
# 14 claims, where ten launches agreed.  The suite interleaves the launches
# (suite.run), so they also spread over the machine's drift in time.
# quick takes one trial a launch so that `make run` stays within its six
# minutes with every peer installed: a second trial of each launch cost a
# third of the suite's time (the 2 MiB points most) and added no launch.
LAUNCHES = {"quick": 3, "paper": 10, "full": 10}
TRIALS = {"quick": "1", "paper": "1", "full": "2"}
# The series the invariant pairs (ordering modes, a non-blocking form and
# its blocking one, an MPI hint on and off: invariant.py) need
# invariant.MIN_TRIALS samples a side before a pair is judged: quick gives
# the programs that emit them two trials a launch.
TRIALS_PAIRED = {"quick": "2", "paper": "1", "full": "2"}


@dataclass(frozen=True)
class Job:
    program: str
    args: dict[str, tuple[str, ...]]                 # suite -> options
    sizes: dict[str, tuple[int, ...]] | None = None  # suite -> --size sweep; None: none
    impls: tuple[str, ...] = IMPLS                   # builds of the program that exist
    env: tuple[tuple[str, str], ...] = ()            # settings for the ordo build
    np: int = 2
    window: int | None = None                        # --window of this job (a sweep point)
    suites: tuple[str, ...] = SUITES                 # the suites that run this job
    mpi_env: tuple[tuple[str, str], ...] = ()        # settings for the MPI builds
    # When set, the records are this job's own series of the experiment that
    # runs it: their experiment becomes that one's id and their variant
    # gains the label ("put, 4 lanes").
    label: str | None = None
    # ordo over this many nodes (ordorun --nodes) whatever the run's --nodes:
    # the network series of an experiment that also runs on shared memory, or
    # 1 for a series whose label names a transport of one node (self, shm)
    nodes: int | None = None

    def options(self, suite: str) -> tuple[str, ...]:
        opts = self.args.get(suite, self.args.get("paper", ()))
        return opts + (("--window", str(self.window)) if self.window else ())


@dataclass(frozen=True)
class Experiment:
    id: str
    title: str
    figure: str                                      # what of the papers it reproduces
    jobs: tuple[Job, ...] = ()
    missing: str | None = None                       # why it cannot run yet
    suites: tuple[str, ...] = SUITES                 # the suites it belongs to
    notes: tuple[str, ...] = field(default_factory=tuple)
    nodes_min: int = 1                               # runs with --nodes at least this


def _trials(paired: bool) -> dict[str, str]:
    return TRIALS_PAIRED if paired else TRIALS


def _iters(quick: str, paper: str, paired: bool = False) -> dict[str, tuple[str, ...]]:
    n = _trials(paired)
    return {"quick": ("--iters", quick, "--trials", n["quick"]),
            "paper": ("--iters", paper, "--trials", n["paper"]),
            "full": ("--iters", paper, "--trials", n["full"])}


def _osu(paired: bool = False) -> dict[str, tuple[str, ...]]:
    """Programs that measure as an OSU benchmark does run with OSU's own
    iteration and warm-up counts (their defaults) in every suite."""
    return {suite: ("--trials", n) for suite, n in _trials(paired).items()}


def _per_alg(setting: str, algs: tuple[str, ...], job: Job) -> tuple[Job, ...]:
    """The ordo build once per forced algorithm; MPI builds once."""
    jobs = [Job(job.program, job.args, job.sizes, ("ordo",), ((setting, a),), job.np)
            for a in algs]
    mpis = tuple(i for i in job.impls if i != "ordo")
    if mpis:
        jobs.append(Job(job.program, job.args, job.sizes, mpis, (), job.np))
    return tuple(jobs)


# Open MPI's default one-sided component on one node (osc/rdma over
# btl/vader) crashes in MPI_Compare_and_swap, as osu_cas_latency does
# (open-mpi/ompi#11349); its shared-memory component (osc/sm) is its fast
# path on one node, with osc/pt2pt for the windows sm does not take
# (create, dynamic).  Every one-sided MPI program runs with this setting,
# recorded in each record's env.settings.
OSC = (("OMPI_MCA_osc", "sm,pt2pt"),)
OSC_NOTE = ("Open MPI runs with OMPI_MCA_osc=sm,pt2pt: its default osc/rdma crashes in "
            "MPI_Compare_and_swap on one node (open-mpi/ompi#11349)")
OVERSUB = "runs at 4 ranks and more are oversubscribed on a machine with fewer cores"


def _one_sided(program: str, args: dict, sizes: dict | None, **kw) -> Job:
    return Job(program, args, sizes, mpi_env=OSC, **kw)


_LATENCY = Job("latency", _osu(), _WIDE)
_BW = Job("bw", _osu(), _WIDE)   # emits bw and bibw
# put_bw's sizes are among bw's, so the two compare point for point
_PUT_BW = _one_sided("put_bw", _iters("20", "50", paired=True),
                     {"quick": (2 << 20,), "paper": (8192, 131072, 2 << 20),
                      "full": (4096, 65536, 1 << 20, 4 << 20)})
_MSGRATE = Job("msgrate", _osu(), _SMALL)
_PUT_RATE = _one_sided("put_rate", _iters("5000", "20000", paired=True), _SMALL)
_PUT_LATENCY = _one_sided("put_latency", _osu(paired=True), _SMALL)
_PUT_SIGNAL = _one_sided("put_signal", _osu(paired=True), {"quick": (8, 65536), "paper": (8, 65536),
                                                "full": (8, 4096, 65536)})
# One OpenSHMEM source, built for ordo's native API (shmem_ops), for ordo's
# OpenSHMEM (shmem_ops.ordo-shmem, records "ordo-shmem") and with Open MPI's
# oshcc (shmem_ops.openmpi-shmem under oshrun, records "openmpi-shmem";
# runner.OSHMEM_BUILDS).
_SHMEM_SIZES = {"quick": (8,), "paper": (8, 4096), "full": (8, 4096, 65536)}
_SHMEM_NATIVE = Job("shmem_ops", _osu(paired=True), _SHMEM_SIZES, impls=("ordo", "openmpi"))
_SHMEM_LAYER = Job("shmem_ops.ordo-shmem", _osu(paired=True), _SHMEM_SIZES, impls=("ordo",))
_OVERLAP = _one_sided("overlap", _iters("300", "2000"),
                      {"quick": (8, 65536, 1 << 20),
                       "paper": (8, 1024, 16384, 65536, 262144, 1 << 20, 4 << 20),
                       "full": (8, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20, 4 << 20)})


NETWORK = ("ordo over its network transport only (ordo-bench --nodes 2): two processes on two "
           "cores over loopback TCP are not a NIC")


def _lanes(k: int) -> str:
    return f"{k} lane{'s' if k > 1 else ''}"


def _lanes_jobs() -> tuple[Job, ...]:
    """ordo's put rate per ordering mode (swept inside put_rate) and lane count."""
    return tuple(Job("put_rate", _iters("2000", "5000", paired=True), _SMALL, ("ordo",),
                     (("ORDO_OFI_LANES", str(k)),), label=_lanes(k))
                 for k in (1, 2, 4))


# The ordering invariant's sweep: every size from 8 B to 4 MiB (x4 in the
# paper suite), each ordering mode, on every transport: self (one rank),
# shared memory, and the network with one lane and with four.
_ORDERING_SIZES = {"quick": (8, 65536),
                   "paper": tuple(8 << (2 * i) for i in range(10)) + (4 << 20,),
                   "full": tuple(8 << i for i in range(20))}
NETWORK_LANES = (1, 4)


def _ordering_jobs() -> tuple[Job, ...]:
    """put_rate (W=16 puts, then a flush; its mixed variant leads each window
    with a 64 KiB put) per transport; the modes are swept inside it."""
    args = {suite: ("--iters", "2000", "--trials", n, "--window", "16")
            for suite, n in TRIALS_PAIRED.items()}
    # self and shm are pinned to one node: under a run's --nodes they would
    # be a network series labelled as another transport (and one rank cannot split)
    jobs = [Job("put_rate", args, _ORDERING_SIZES, ("ordo",), np=1, label="self", nodes=1),
            Job("put_rate", args, _ORDERING_SIZES, ("ordo",), label="shm", nodes=1)]
    jobs += [Job("put_rate", args, _ORDERING_SIZES, ("ordo",), (("ORDO_OFI_LANES", str(k)),),
                 nodes=2, label=f"network, {_lanes(k)}") for k in NETWORK_LANES]
    return tuple(jobs)


def _bounce_jobs() -> tuple[Job, ...]:
    """Small puts from unregistered memory on a provider that needs local
    registration (forced with ORDO_OFI_MR_LOCAL=1): copied through a bounce
    buffer, or the buffer registered for each put.  Batching is off: a
    batched put is copied into its message and needs neither."""
    sizes = {"quick": (8, 4096), "paper": (8, 512, 4096), "full": (8, 64, 512, 2048, 4096)}
    base = (("ORDO_OFI_MR_LOCAL", "1"), ("ORDO_OFI_PUT_BATCH", "off"))
    args = _iters("2000", "5000", paired=True)
    return (Job("put_rate", args, sizes, ("ordo",), base, label="bounce"),
            Job("put_rate", args, sizes, ("ordo",),
                base + (("ORDO_BOUNCE_MAX", "0"), ("ORDO_RCACHE_MAX", "0")),
                label="registered per put"),
            Job("put_rate", args, sizes, ("ordo",),
                base + (("ORDO_BOUNCE_MAX", "0"),), label="registration cache"))


def _put_batch_jobs() -> tuple[Job, ...]:
    """Short puts gathered into one message per peer (the default where the
    provider's RMA is software) against one RMA write each; put_rate sweeps
    the ordering modes."""
    sizes = {"quick": (8, 1024), "paper": (8, 64, 1024), "full": (8, 64, 256, 1024, 4096)}
    args = _iters("2000", "5000", paired=True)
    return (Job("put_rate", args, sizes, ("ordo",), (), label="batched"),
            Job("put_rate", args, sizes, ("ordo",),
                (("ORDO_OFI_PUT_BATCH", "off"),), label="one write per put"))


def _shm_provider_jobs() -> tuple[Job, ...]:
    """libfabric's shm provider as ordo's network transport: lane 0 asks for
    the default mode's ordering, the other lane for none, which is when shm
    takes its single-copy RMA path; put_bw sweeps the modes."""
    sizes = {"quick": (65536, 2 << 20), "paper": (8192, 131072, 2 << 20),
             "full": (4096, 65536, 1 << 20, 4 << 20)}
    return (Job("put_bw", _iters("20", "50", paired=True), sizes, ("ordo",),
                (("ORDO_OFI_PROVIDER", "shm"), ("ORDO_OFI_LANES", "2")),
                label="libfabric shm"),)


def _fig2_jobs() -> tuple[Job, ...]:
    """size x pairs x window (the orders are swept inside the program)."""
    sizes = {"quick": (8, 4096, 65536), "paper": (8, 512, 4096, 65536, 1 << 20),
             "full": (8, 64, 512, 4096, 32768, 262144, 1 << 20)}
    args = _iters("300", "2000", paired=True)
    jobs = []
    for pairs, windows, suites in ((1, (1, 64), ("quick",)),
                                   (1, (1, 8, 64), ("paper", "full")),
                                   (2, (1, 8, 64), ("paper", "full")),
                                   (4, (1, 16, 64), ("full",))):
        for w in windows:
            jobs.append(_one_sided("fig2", args, sizes, np=2 * pairs, window=w, suites=suites))
    # over the network, where ordering costs: one pair, W=64, 1 and 4 lanes
    for k in NETWORK_LANES:
        jobs.append(Job("fig2", args, sizes, ("ordo",), (("ORDO_OFI_LANES", str(k)),),
                        window=64, suites=("paper", "full"), nodes=2,
                        label=f"network, {_lanes(k)}"))
    return tuple(jobs)


# MPI-4's ordering hints (bench/hints.c), each measured with and without in
# one launch: every MPI on shared memory; ordo's MPI over the network too,
# with 1 and 4 lanes (where its relaxed streams have lanes to spread over)
_HINT_SIZES = {"overtaking": {"quick": (8, 65536), "paper": (8, 2048, 65536),
                              "full": (8, 512, 2048, 16384, 65536)},
               "accumulate": {"quick": (8,), "paper": (8, 512), "full": (8, 64, 512)},
               "put": {"quick": (8, 65536), "paper": (8, 2048, 65536),
                       "full": (8, 512, 2048, 16384, 65536)}}


def _hints_jobs() -> tuple[Job, ...]:
    jobs = []
    for measure, sizes in _HINT_SIZES.items():
        args = {suite: ("--variant", measure, "--trials", n)
                for suite, n in TRIALS_PAIRED.items()}
        jobs.append(Job("hints", args, sizes, (MPI,), mpi_env=OSC))
        jobs += [Job("hints", args, sizes, (ORDO_MPI,), mpi_env=(("ORDO_OFI_LANES", str(k)),),
                     nodes=2, label=f"network, {_lanes(k)}") for k in NETWORK_LANES]
    return tuple(jobs)


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment("latency", "Two-sided latency (ping-pong, RTT/2)",
               "OSU latency; IPDPS'14 two-sided baseline", (_LATENCY,)),
    Experiment("multi_latency", "Multi-pair two-sided latency",
               "OSU multi-pair latency",
               (Job("latency", _osu(), {"quick": (8,), "paper": (8, 4096),
                                                          "full": (8, 4096)}, np=4),),
               suites=("paper", "full"),
               notes=("4 ranks: oversubscribed on a machine with fewer than 4 cores",)),
    Experiment("put_latency", "One-sided put latency (put ping-pong, as ucp_put_lat)",
               "ucx_perftest -t ucp_put_lat; osu_put_latency (flush)", (_PUT_LATENCY,),
               notes=(OSC_NOTE,)),
    Experiment("put_signal", "A put, then a flag the target waits on: put_signal against "
               "put + fence + put, per ordering mode",
               "ordering per operation (OpenSHMEM put_signal)", (_PUT_SIGNAL,),
               notes=(OSC_NOTE, "MPI has no put-with-signal and no call that only orders two "
                      "puts: its put-fence-put completes the data (MPI_Win_flush) first")),
    Experiment("shmem", "OpenSHMEM put, get, put rate, put_signal, fetch-add and barrier: "
               "ordo's OpenSHMEM against ordo's native API and Open MPI's OpenSHMEM, one source",
               "PGAS'11 one-sided figures; osu_oshm_put / get / atomics",
               (_SHMEM_NATIVE, _SHMEM_LAYER),
               notes=("the layer's overhead is the difference of the two ordo builds",
                      "Open MPI's OpenSHMEM (oshcc, oshrun, over UCX): its shmem_finalize "
                      "crashes on this machine after the records are printed; its records are "
                      "kept when every PE said it had measured first")),
    Experiment("bw", "Unidirectional bandwidth (windowed), two-sided and one-sided",
               "OSU bandwidth; IPDPS'14 Fig. 9", (_BW, _PUT_BW), notes=(OSC_NOTE,)),
    Experiment("bibw", "Bidirectional bandwidth", "OSU bidirectional bandwidth", (_BW,),
               notes=("measured by the bw program, with bw",)),
    Experiment("msgrate", "Message rate, one- and two-sided, per ordering mode",
               "PGAS'14 Fig. 1; IPDPS'14 ordering modes", (_MSGRATE, _PUT_RATE),
               notes=(OSC_NOTE,)),
    Experiment("fig2", "Windowed bidirectional sweep: size x pairs x window x ordering",
               "IPDPS'14 Fig. 2 (and Figs. 3-5, 9: concurrency x window)", _fig2_jobs(),
               notes=(OSC_NOTE, OVERSUB)),
    Experiment("rma_sync", "Put/get latency and bandwidth per synchronisation mode",
               "osu_put/get_latency and _bw: flush, flush_local, lock, lock_all, fence, pscw",
               (_one_sided("rma_sync", _iters("2000", "20000"),
                           {"quick": (8, 4096), "paper": (8, 64, 512, 4096, 32768, 262144),
                            "full": (8, 64, 512, 4096, 32768, 262144, 1 << 20)}),),
               notes=(OSC_NOTE,)),
    Experiment("atomics", "Atomics latency (fetch-add, compare-swap, add)",
               "osu_fop_latency, osu_cas_latency, osu_acc_latency",
               (_one_sided("atomics", _iters("20000", "100000", paired=True), None),),
               notes=(OSC_NOTE,)),
    Experiment("regcost", "Registered vs unregistered target; creation cost vs concurrency",
               "IPDPS'14 Figs. 6 and 9",
               (_one_sided("regcost", {"quick": ("--iters", "40", "--trials", TRIALS["quick"]),
                                       "paper": ("--iters", "200", "--trials", TRIALS["paper"])},
                           {"quick": (4096, 2 << 20),
                            "paper": (4096, 65536, 262144, 2 << 20)}),
                # oversubscribed: a shape, not a speed (OVERSUB), so few iterations
                _one_sided("regcost", {"paper": ("--iters", "10", "--trials", TRIALS["paper"])},
                           {"paper": (4096, 2 << 20)}, np=4, suites=("paper", "full"))),
               notes=(OSC_NOTE, OVERSUB)),
    Experiment("overlap", "Overlap of communication and computation",
               "PGAS'11 Fig. 2 (overlapped fraction)", (_OVERLAP,), notes=(OSC_NOTE,)),
    Experiment("halo", "Halo exchange, 2/4/8 partners, every RMA synchronisation",
               "Gropp & Thakur, EuroPVM/MPI'05, Figs. 1-3",
               (Job("halo", _iters("1000", "4000"),
                    {"quick": (8, 1024), "paper": (8, 256, 4096, 16384),
                     "full": (8, 64, 256, 1024, 4096, 16384)}, mpi_env=OSC),),
               notes=(OSC_NOTE,)),
    Experiment("barrier", "Barrier latency per algorithm",
               "Open MPI one-sided paper, Sec. V (atomic vs message barrier)",
               _per_alg("ORDO_COLL_BARRIER", ("dissemination", "tree", "shm"),
                        Job("barrier", _osu()))),
    Experiment("alltoall", "All-to-all, two-sided pairwise vs one-sided put",
               "Open MPI one-sided paper (put-based alltoall)",
               _per_alg("ORDO_COLL_ALLTOALL", ("pairwise", "put"),
                        Job("alltoall", _iters("500", "2000"),
                            {"quick": (8, 4096), "paper": (8, 512, 4096, 32768),
                             "full": (8, 64, 512, 4096, 32768)}))),
    Experiment("transpose", "FT-like transpose: alltoall vs one-sided gets",
               "PGAS'11 Fig. 3 (NAS FT with gets instead of MPI_Alltoall)",
               (_one_sided("transpose", _iters("300", "2000"),
                           {"quick": (1024, 65536), "paper": (256, 4096, 65536, 1 << 20),
                            "full": (256, 1024, 4096, 16384, 65536, 262144, 1 << 20)}),
                _one_sided("transpose", _iters("30", "30"),       # oversubscribed, as above
                           {"paper": (4096, 65536)}, np=4, suites=("paper", "full"))),
               notes=(OSC_NOTE, OVERSUB)),
    Experiment("stream", "STREAM copy/scale/add/triad over one-sided gets",
               "PGAS'11 Fig. 4 (naive and pipelined)",
               (_one_sided("stream", _iters("5", "20"),
                           {"quick": (8 << 20,), "paper": (1 << 20, 8 << 20, 32 << 20),
                            "full": (1 << 20, 4 << 20, 16 << 20, 64 << 20)}),),
               notes=(OSC_NOTE,)),
    Experiment("lanes", "Put rate per ordering mode and lane count, over the network",
               "IPDPS'14 ordering modes (Gemini's adaptive routing: lanes that reorder)",
               _lanes_jobs(), nodes_min=2, notes=(NETWORK,)),
    Experiment("ordering", "More freedom is never slower: put rate per ordering mode at every "
               "size, on self, shared memory and the network with 1 and 4 lanes",
               "IPDPS'14 ordering modes; ordo's invariant relaxed >= default >= strict",
               _ordering_jobs(),
               notes=("the report checks every pair of modes at every size and transport, and "
                      "the OpenSHMEM contexts' options and nbi against blocking puts (shmem), "
                      "and flags where the freer one measured slower",
                      "network: " + NETWORK)),
    Experiment("hints", "MPI-4's ordering hints, each with and without: "
               "mpi_assert_allow_overtaking (message rate), accumulate_ordering=none "
               "(accumulate and put rate)",
               "what relaxing MPI's order buys each library (no published figure)",
               _hints_jobs(), suites=("paper", "full"),
               notes=(OSC_NOTE, "ordo's MPI also over its network transport with 1 and 4 "
                      "lanes: " + NETWORK,
                      "the report gives each hint's speed-up per library, size and transport, "
                      "with its interval",
                      "paper and full suites (or named: ordo-bench run hints): the quick one "
                      "is make run's, kept short")),
    Experiment("put_batch", "Short puts over the network: gathered into messages vs one "
               "RMA write each",
               "Open MPI's pt2pt one-sided component and GASNet gather small puts the same way",
               _put_batch_jobs(), nodes_min=2, notes=(NETWORK,)),
    Experiment("bounce", "Small puts from unregistered memory: bounce buffer vs registration",
               "Ibrahim et al., Sec. III (bounce buffers vs dynamic registration)",
               _bounce_jobs(), nodes_min=2, notes=(NETWORK,)),
    Experiment("shm_provider", "Put bandwidth per ordering mode over libfabric's shm provider",
               "IPDPS'14 ordering modes, on a transport whose fast path needs no ordering",
               _shm_provider_jobs(), nodes_min=2,
               notes=("libfabric's shm provider uses single-copy RMA only where no RMA "
                      "ordering is asked for: ordo's relaxed lanes ask for none, the default "
                      "mode's lane asks for write order",)),
    Experiment("startup", "Start-up: joining the job, the first barrier, finalize",
               "ordo's bootstrap next to MPI_Init, each under its launcher (--launcher)",
               tuple(Job("startup", {"quick": (), "paper": ()}, None, np=n,
                         suites=("paper", "full") if n > 4 else SUITES)
                     for n in (2, 4, 8, 16)),
               suites=("paper", "full"),
               notes=("the slowest rank's time from before ordo_init / MPI_Init to its "
                      "return, and to the end of the first collective barrier; the "
                      "launcher's own start is outside",
                      "ordo runs under the launcher --launcher names (ordorun when unset); "
                      "Open MPI under its mpirun, MPICH under its mpiexec, both under srun "
                      "with --launcher srun: compare ordo with the MPI that shares its "
                      "launcher", OVERSUB)),
    Experiment("loggp", "LogGP fit (L, o, g, G) from latency, rate, overlap and bandwidth",
               "LogGP model (Alexandrov et al.), per paradigm and library",
               (_LATENCY, _BW, _MSGRATE, _OVERLAP, _PUT_LATENCY, _PUT_RATE, _PUT_BW),
               notes=("computed from the records of the jobs listed, which run once when "
                      "other experiments share them",)),
)

BY_ID = {e.id: e for e in EXPERIMENTS}


def select(ids: list[str] | None, suite: str, nodes: int = 1) -> list[Experiment]:
    """The experiments named (all of the suite's that a run over `nodes`
    nodes can measure, when none), in order; an unknown id is an error
    naming the known ones."""
    if ids:
        unknown = [i for i in ids if i not in BY_ID]
        if unknown:
            raise KeyError(f"unknown experiment(s) {', '.join(unknown)}; known: "
                           f"{', '.join(BY_ID)}")
        return [BY_ID[i] for i in ids]
    return [e for e in EXPERIMENTS if suite in e.suites and nodes >= e.nodes_min]
