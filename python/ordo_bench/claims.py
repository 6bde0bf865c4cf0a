"""What the report says at the top: the summary table (one row per headline
measure, one column per library, ordo against the best peer) and the claims
of the papers, each computed on a fixed, named pair of series at a fixed
size, with its 95% interval (stats).  Nothing here picks "the best of the
variants measured": a claim whose series are missing from the run says
which it needs."""

from __future__ import annotations

from dataclasses import dataclass

from . import stats
from .stats import Ratio

KiB, MiB = 1024, 1 << 20
PEERS = ("openmpi", "mpich")
LIBRARIES = ("ordo",) + PEERS
# impls in records that are not MPI libraries ordo is compared with
NOT_PEERS = ("ordo", "ordo-shmem", "openmpi-shmem", "memcpy", "ucx", "mpi")
# ordo's own MPI (libmpi_abi): a column of the summary, never a peer
OURS = ("ordo", "ordo-mpi")


def libraries_of(records: list[dict]) -> tuple[str, ...]:
    """ordo, then every MPI library the records hold (Debian's, PyPI's,
    any the user named), in the figures' order."""
    from .figures import library_rank
    found = {r.get("impl") for r in records} - set(NOT_PEERS) - {None}
    return ("ordo",) + tuple(sorted(found, key=lambda i: (library_rank(i), i)))


def peers_of(recs: dict[str, dict]) -> dict[str, dict]:
    """The MPI libraries among a measure's records: ordo's own are not."""
    return {p: r for p, r in recs.items() if p not in OURS and r}

# The sizes the claims are stated at; every suite's sweeps hold them
# (experiments.py).
CLAIM_SIZES = {"rate_small": 8, "rate_2k": 2 * KiB, "bandwidth": 2 * MiB, "fig2": 64 * KiB,
               "overlap": MiB, "transpose": 64 * KiB, "stream": 8 * MiB, "regcost": 2 * MiB,
               "halo": 8}


def measured(records: list[dict]) -> list[dict]:
    return [r for r in records if r.get("value") is not None and "derived_from" not in r]


def find(records: list[dict], **match) -> dict | None:
    """The one measured record matching every field given (np 2 unless
    named); None when the run lacks it."""
    match.setdefault("np", 2)
    hits = [r for r in measured(records) if all(r.get(k) == v for k, v in match.items())]
    return hits[0] if hits else None


def oversubscribed(r: dict) -> bool:
    cores = (r.get("env") or {}).get("cores") or 0
    return bool(cores) and r["np"] > cores


# ------------------------------------------------------------------ summary

@dataclass(frozen=True)
class Measure:
    name: str
    better: str                        # "higher" or "lower"
    unit: str
    match: dict                        # fields every library's record has
    ordo: dict                         # ... and ordo's (its ordering mode, algorithm)
    mpi: dict                          # ... and an MPI's


HEADLINE = (
    Measure("Latency, 8 B (osu_latency)", "lower", "µs",
            {"experiment": "latency", "size": 8}, {}, {}),
    Measure("Bandwidth, 2 MiB, W=64 (osu_bw)", "higher", "MB/s",
            {"experiment": "bw", "size": 2 * MiB, "paradigm": "two-sided"}, {}, {}),
    Measure("Message rate, 8 B, W=64 (osu_mbw_mr)", "higher", "M msg/s",
            {"experiment": "msgrate", "paradigm": "two-sided", "size": 8, "window": 64,
             "pairs": 1}, {}, {}),
    Measure("Put latency, 8 B, put + flush (osu_put_latency)", "lower", "µs",
            {"experiment": "put_latency", "variant": "one-way", "size": 8},
            {"order": "default"}, {}),
    Measure("Put rate, 8 B, W=64, flush per window", "higher", "M msg/s",
            {"experiment": "msgrate", "paradigm": "one-sided", "variant": "put", "size": 8,
             "window": 64}, {"order": "default"}, {}),
    Measure("Put bandwidth, 2 MiB (osu_put_bw, flush)", "higher", "MB/s",
            {"experiment": "put_bw", "size": 2 * MiB, "paradigm": "one-sided"},
            {"order": "default"}, {}),
    Measure("Barrier, 2 ranks (osu_barrier)", "lower", "µs",
            {"experiment": "barrier"}, {"variant": "shm"}, {"variant": "MPI_Barrier"}),
    Measure("Halo, 8 partners, 8 B, Isend/Irecv", "lower", "µs",
            {"experiment": "halo", "variant": "sendrecv", "pairs": 8, "size": 8}, {}, {}),
    Measure("Halo, 8 partners, 8 B, lock-put-unlock", "lower", "µs",
            {"experiment": "halo", "variant": "put-lock-shared-nb", "pairs": 8, "size": 8},
            {}, {}),
)


@dataclass
class Verdict:
    """ordo against the best peer: speed-up (>1: ordo better) with its
    interval, and the word for it."""
    peer: str
    speedup: Ratio

    @property
    def word(self) -> str:
        if not self.speedup.differs:
            return "no difference measured"
        return "better" if self.speedup.value > 1 else "worse"

    def text(self) -> str:
        if not self.speedup.differs:
            return f"no difference measured vs {self.peer} ({self.speedup.text()})"
        return f"{self.word}: {self.speedup.text()} vs {self.peer}"


def headline_record(records: list[dict], m: Measure, impl: str) -> dict | None:
    extra = m.ordo if impl == "ordo" else m.mpi
    return find(records, impl=impl, **m.match, **extra)


def verdict(m: Measure, ordo: dict, peers: dict[str, dict]) -> Verdict | None:
    """ordo against the best peer (by median) of those measured."""
    if not peers:
        return None
    pick = max if m.better == "higher" else min
    peer = pick(peers, key=lambda p: peers[p]["value"])
    sp = stats.ratio(ordo, peers[peer]) if m.better == "higher" else \
        stats.ratio(peers[peer], ordo)
    return Verdict(peer, sp)


def size_text(size: int) -> str:
    for unit, n in (("MiB", MiB), ("KiB", KiB)):
        if size >= n and size % n == 0:
            return f"{size // n} {unit}"
    return f"{size} B"


def worst_size(records: list[dict], m: Measure, libraries: tuple[str, ...]
               ) -> tuple[int, Verdict] | None:
    """ordo's worst speed-up against the best peer at any size of the
    measure's sweep (its fields but the size), and where: a headline size
    where ordo leads must not hide one where it trails.  None for a measure
    without sizes, or a sweep with no size both ordo and a peer measured."""
    if "size" not in m.match:
        return None
    fields = {k: v for k, v in m.match.items() if k != "size"}
    sizes = sorted({r["size"] for r in measured(records)
                    if all(r.get(k) == v for k, v in fields.items())})
    worst = None
    for size in sizes:
        at = Measure(m.name, m.better, m.unit, {**fields, "size": size}, m.ordo, m.mpi)
        recs = {impl: headline_record(records, at, impl) for impl in libraries}
        peers = peers_of(recs)
        v = verdict(at, recs["ordo"], peers) if recs.get("ordo") else None
        if v and (worst is None or v.speedup.value < worst[1].speedup.value):
            worst = (size, v)
    return worst


def summary(records: list[dict], libraries: tuple[str, ...] | None = None
            ) -> tuple[list[str], list[list[str]], list[str]]:
    """Rows: measure | each library's median [95% interval] | ordo vs the
    best peer | ordo's worst size of the sweep.  Also returns each row's
    verdict word (for colouring): "worse" when ordo trails at any size."""
    libraries = libraries or libraries_of(records)
    head = ["measure", "unit"] + list(libraries) + ["ordo vs best peer (speed-up, 95% CI)",
                                                    "ordo's worst size in the sweep"]
    rows, words = [], []
    for m in HEADLINE:
        recs = {impl: headline_record(records, m, impl) for impl in libraries}
        if not any(recs.values()):
            continue
        cells = [stats.value_text(r) if r else "–" for r in recs.values()]
        peers = peers_of(recs)
        v = verdict(m, recs["ordo"], peers) if recs.get("ordo") else None
        w = worst_size(records, m, libraries)
        worst = "–" if w is None else f"{size_text(w[0])}: {w[1].text()}"
        rows.append([f"{m.name} ({m.better} is better)", m.unit] + cells +
                    [v.text() if v else "–", worst])
        word = v.word if v else ""
        if w is not None and w[1].word == "worse":
            word = "worse"
        words.append(word)
    return head, rows, words


# ------------------------------------------------------------------ claims

@dataclass
class Claim:
    claim: str
    paper: str
    measured: str
    definition: str                  # the fixed pair of series and size
    note: str = ""
    interval: tuple[float, float] | None = None   # the measured ratio's 95% CI

    def agrees_with(self, other: Claim) -> bool | None:
        """Whether two runs' intervals for this claim overlap (None: one
        run could not compute it)."""
        if self.interval is None or other.interval is None:
            return None
        return self.interval[0] <= other.interval[1] and other.interval[0] <= self.interval[1]


def _need(claim: str, paper: str, definition: str) -> Claim:
    return Claim(claim, paper, "not in this run", definition,
                 "the run lacks one of the two series")


def _ratio_claim(claim: str, paper: str, definition: str, a: dict | None, b: dict | None,
                 note: str = "") -> Claim:
    if not (a and b):
        return _need(claim, paper, definition)
    r = stats.ratio(a, b)
    words = r.text() + ("" if r.differs else ": no difference measured")
    if oversubscribed(a) or oversubscribed(b):
        note = "; ".join(x for x in (note, "oversubscribed") if x)
    return Claim(claim, paper, words, definition, note, (r.lo, r.hi))


def _percent_claim(claim: str, paper: str, definition: str, a: dict | None, b: dict | None,
                   how: str, note: str = "") -> Claim:
    """a/b as a percentage: "less" is 100(1 - a/b), "more" 100(a/b - 1)."""
    if not (a and b):
        return _need(claim, paper, definition)
    r = stats.ratio(a, b)
    if how == "less":
        v, lo, hi = (100 * (1 - x) for x in (r.value, r.hi, r.lo))
    else:
        v, lo, hi = (100 * (x - 1) for x in (r.value, r.lo, r.hi))
    words = f"{v:+.0f}% [{lo:+.0f}%, {hi:+.0f}%]" + ("" if r.differs else
                                                    ": no difference measured")
    return Claim(claim, paper, words, definition, note, (r.lo, r.hi))


def claims(records: list[dict]) -> list[Claim]:
    out = []
    s = CLAIM_SIZES
    # IPDPS'14: relaxed ordering, up to 4.6x the strict aggregate get bandwidth
    # the most pairs measured without oversubscription (the paper's claim is about
    # concurrency; ranks sharing cores would measure the scheduler)
    fig2 = [r for r in measured(records) if r["experiment"] == "fig2" and r["impl"] == "ordo"
            and not oversubscribed(r)]
    pairs = max((r["pairs"] for r in fig2), default=1)
    pick = {"experiment": "fig2", "impl": "ordo", "variant": "get", "size": s["fig2"],
            "window": 64, "pairs": pairs, "np": 2 * pairs}
    out.append(_ratio_claim(
        "Relaxed vs strict ordering, aggregate get bandwidth", "up to 4.6x",
        f"ordo fig2 get relaxed / strict, {s['fig2'] // KiB} KiB, W=64, {pairs} pair(s)",
        find(records, **pick, order="relaxed"), find(records, **pick, order="strict")))
    out += _ordering_claims(records)
    # PGAS'11: one-sided message rate 5x / 10x the two-sided one at 8 B / 2 KiB
    for key, paper in (("rate_small", "5x"), ("rate_2k", "10x")):
        size = s[key]
        out.append(_ratio_claim(
            f"One- vs two-sided message rate, {_bytes(size)}", paper,
            f"ordo put (default order) / ordo isend, {_bytes(size)}, W=64, 1 pair",
            find(records, experiment="msgrate", impl="ordo", variant="put", order="default",
                 size=size, window=64),
            find(records, experiment="msgrate", impl="ordo", paradigm="two-sided",
                 size=size, window=64, pairs=1)))
    # IPDPS'14: two-sided loses up to 30% of the bandwidth
    out.append(_percent_claim(
        "Bandwidth lost by two-sided vs one-sided", "up to 30%",
        f"1 - ordo bw / ordo put_bw (default order), {_bytes(s['bandwidth'])}",
        find(records, experiment="bw", impl="ordo", paradigm="two-sided",
             size=s["bandwidth"]),
        find(records, experiment="put_bw", impl="ordo", order="default",
             size=s["bandwidth"], paradigm="one-sided"), "less"))
    # Open MPI on Cray: atomic fan-in/fan-out barrier 39% faster than messages
    tree = find(records, experiment="barrier", impl="ordo", variant="tree")
    out.append(_percent_claim(
        "Atomic (fan-in/fan-out) vs message barrier", "39% faster",
        "1 - ordo tree / ordo dissemination barrier time, 2 ranks", tree,
        find(records, experiment="barrier", impl="ordo", variant="dissemination"), "less"))
    # Gropp & Thakur: lock-put-unlock halo 2x-10x faster than send/recv
    out += _per_library(records, "Lock-put-unlock vs send-recv halo", "2x to 10x",
                        {"experiment": "halo", "pairs": 8, "size": s["halo"]},
                        "sendrecv", "put-lock-shared-nb",
                        f"time, 8 partners, {s['halo']} B")
    out += _pgas_claims(records)
    return out


# The ordering experiment's transports, and what each can show of the
# papers' effect (the claims table says it beside the figure).
ORDERING_TRANSPORTS = (
    ("shm", "shared memory",
     "ordering is a store fence here (free on x86): relaxed has nothing to win, and must "
     "lose nothing"),
    ("network, 1 lane", "network, 1 lane",
     "one connection delivers in order: strict waits for each put's completion, default "
     "pipelines on the provider's order, relaxed can do no better than default"),
    ("network, 4 lanes", "network, 4 lanes",
     "lanes deliver out of order, as the papers' adaptively routed network: where the "
     "paper's effect can show (loopback TCP on 2 cores is not a NIC)"),
)


def _ordering_claims(records: list[dict]) -> list[Claim]:
    """Relaxed vs strict and relaxed vs default put rate at 8 B, on shared
    memory and over the network, side by side."""
    out = []
    size = CLAIM_SIZES["rate_small"]
    for stricter, paper in (("strict", "up to 4.6x"), ("default", "more where order costs")):
        for label, words, note in ORDERING_TRANSPORTS:
            pick = {"experiment": "ordering", "impl": "ordo", "variant": f"put, {label}",
                    "size": size, "window": 16}
            out.append(_ratio_claim(
                f"Relaxed vs {stricter} ordering, put rate, {words}", paper,
                f"ordo ordering put relaxed / {stricter}, {_bytes(size)}, W=16, {words}",
                find(records, **pick, order="relaxed"), find(records, **pick, order=stricter),
                note))
    return out


def _per_library(records: list[dict], claim: str, paper: str, fields: dict, slow: str,
                 fast: str, unit_words: str) -> list[Claim]:
    """The claim once per library that measured both variants (ordo always,
    saying what it lacks): time of slow / time of fast."""
    out = []
    for impl in libraries_of(records):
        a = find(records, impl=impl, **fields, variant=slow)
        b = find(records, impl=impl, **fields, variant=fast)
        if impl == "ordo" or (a and b):
            out.append(_ratio_claim(claim, paper, f"{impl} {fields['experiment']} {slow} / "
                                                  f"{fast} {unit_words}", a, b))
    return out


def _pgas_claims(records: list[dict]) -> list[Claim]:
    """PGAS'11 (overlap, FT, STREAM) and IPDPS'14 (registration)."""
    out = []
    s = CLAIM_SIZES
    put = find(records, experiment="overlap", impl="ordo", variant="put", size=s["overlap"])
    isend = find(records, experiment="overlap", impl="ordo", variant="isend",
                 size=s["overlap"])
    definition = f"ordo overlapped fraction, put and isend, {_bytes(s['overlap'])}"
    if put and isend:
        out.append(Claim("Overlap of large transfers: one-sided vs MPI", "PGAS ~1 vs MPI ~0",
                         f"put {stats.value_text(put)} vs isend {stats.value_text(isend)}",
                         definition, "1: the transfer hides wholly behind computation; 0: not "
                                     "at all; below 0: overlapping made both slower"))
    else:
        out.append(_need("Overlap of large transfers: one-sided vs MPI", "PGAS ~1 vs MPI ~0",
                         definition))
    out += _per_library(records, "FT transpose with gets instead of alltoall",
                        "2.6x at 16K cores", {"experiment": "transpose", "size": s["transpose"]},
                        "alltoall", "get", f"time, {_bytes(s['transpose'])} blocks, 2 ranks")
    out.append(_ratio_claim(
        "STREAM triad over one-sided: pipelined vs naive", "over 3x",
        f"ordo stream triad-pipelined / triad-naive, {_bytes(s['stream'])} arrays",
        find(records, experiment="stream", impl="ordo", variant="triad-pipelined",
             size=s["stream"]),
        find(records, experiment="stream", impl="ordo", variant="triad-naive",
             size=s["stream"]),
        "pipelining needs spare cores for the copy engines"))
    out.append(_percent_claim(
        "Get into non-shared (unregistered) memory vs shared", "about -7%",
        f"ordo regcost get-non-shared / get-shared bandwidth, {_bytes(s['regcost'])}",
        find(records, experiment="regcost", impl="ordo", variant="get-non-shared",
             size=s["regcost"]),
        find(records, experiment="regcost", impl="ordo", variant="get-shared",
             size=s["regcost"]), "more"))
    return out


def _bytes(n: int) -> str:
    if n >= MiB and n % MiB == 0:
        return f"{n // MiB} MiB"
    if n >= KiB and n % KiB == 0:
        return f"{n // KiB} KiB"
    return f"{n} B"
