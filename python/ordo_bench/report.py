"""The report of a run: a figure per experiment (ordo and the MPIs side by
side), a headline table, the claims table (each headline claim of the
papers next to what this machine measured), the machine, and warnings
where a figure is oversubscribed.  Written as report.md and report.html
from results.jsonl, so `ordo-bench report DIR` redraws a saved run."""

from __future__ import annotations

import html
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from . import loggp
from .experiments import BY_ID


def load(run_dir: Path) -> tuple[list[dict], dict]:
    path = Path(run_dir) / "results.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{path} not found: not a run directory")
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    manifest_path = Path(run_dir) / "run.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    return records, manifest


def series_key(r: dict) -> tuple:
    return (r["impl"], r.get("paradigm"), r.get("variant"), r.get("order"), r.get("pairs"),
            r.get("window"), r["np"])


def series_label(key: tuple) -> str:
    impl, paradigm, variant, order, pairs, window, np = key
    parts = [impl]
    if variant:
        parts.append(str(variant))
    elif paradigm:
        parts.append(paradigm)
    if order:
        parts.append(order)
    if pairs:
        parts.append(f"{pairs} pairs")
    if window and window > 1:
        parts.append(f"W={window}")
    parts.append(f"np={np}")
    return " ".join(parts)


def oversubscribed(r: dict) -> bool:
    cores = (r.get("env") or {}).get("cores") or 0
    return bool(cores) and r["np"] > cores


def _measured(records: list[dict]) -> list[dict]:
    """Measured points (not skipped, not derived like the LogGP fit)."""
    return [r for r in records if r.get("value") is not None and "derived_from" not in r]


# ------------------------------------------------------------------ figures

def figures(records: list[dict], out: Path) -> list[tuple[str, str, str]]:
    """One figure per (experiment, metric): series over size on log axes (a
    bar chart when there is one size), a panel per partner count when the
    experiment has several (the halo).  Returns (experiment, title, png)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    made = []
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in _measured(records):
        groups[(r["experiment"], r["metric"], r["unit"])].append(r)
    for (exp, metric, unit), recs in sorted(groups.items()):
        # panels: a row per pair count, and for the fig2 sweep a column per window
        by_window = exp == "fig2"
        rows_of = sorted({r.get("pairs") or 0 for r in recs})
        cols_of = sorted({r.get("window") or 0 for r in recs}) if by_window else [None]
        if len(rows_of) == 1 and len(cols_of) == 1:
            rows_of, cols_of = [None], [None]
        sizes = sorted({r["size"] for r in recs})
        ncols = len(cols_of) if cols_of != [None] else len(rows_of)
        nrows = len(rows_of) if cols_of != [None] else 1
        fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols + 3.5, 4.0 * nrows + 0.5),
                                 sharey=True, squeeze=False)
        panels = ([(rw, cl) for rw in rows_of for cl in cols_of] if cols_of != [None]
                  else [(rw, None) for rw in rows_of])
        handles: dict[str, object] = {}
        for ax, (prs, win) in zip(axes.flat, panels):
            series: dict[tuple, dict[int, float]] = defaultdict(dict)
            for r in recs:
                if prs is not None and (r.get("pairs") or 0) != prs:
                    continue
                if win is not None and (r.get("window") or 0) != win:
                    continue
                key = series_key(r)
                if prs is not None:
                    key = key[:4] + (None,) + key[5:]       # the panel says the pairs
                if win is not None:
                    key = key[:5] + (None,) + key[6:]       # ... and the window
                series[key][r["size"]] = r["value"]
            keys = sorted(series, key=series_label)
            if len(sizes) > 1:
                for key in keys:
                    pts = sorted(series[key].items())
                    (line,) = ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                                      linestyle="-" if key[0] == "ordo" else "--")
                    handles[series_label(key)] = line
                ax.set_xscale("log", base=2)
                if metric == "fraction":
                    ax.set_ylim(-0.05, 1.05)
                else:
                    ax.set_yscale("log")
                ax.set_xlabel("message size (bytes)")
                ax.set_ylabel(f"{metric} ({unit})")
            else:
                ax.barh([series_label(k) for k in keys], [series[k][sizes[0]] for k in keys])
                ax.invert_yaxis()
                ax.set_xlabel(f"{metric} ({unit})")
            if prs is not None or win is not None:
                what = "pairs" if by_window else "partners"
                ax.set_title(", ".join(([f"{prs} {what}"] if prs is not None else []) +
                                       ([f"W={win}"] if win is not None else [])), fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
        title = BY_ID[exp].title if exp in BY_ID else exp
        if any(oversubscribed(r) for r in recs):
            title += " — oversubscribed"
        fig.suptitle(title, fontsize=10)
        if handles:
            fig.legend(list(handles.values()), list(handles), fontsize=7, loc="center right")
            fig.tight_layout(rect=(0, 0, 0.72, 1))
        else:
            fig.tight_layout()
        name = f"{exp}_{metric}"
        fig.savefig(out / f"{name}.png", dpi=110)
        fig.savefig(out / f"{name}.svg")
        plt.close(fig)
        made.append((exp, title, f"figures/{name}.png"))
    return made


# ------------------------------------------------------------------ tables

def _find(records: list[dict], **match) -> list[dict]:
    return [r for r in _measured(records)
            if all(r.get(k) == v for k, v in match.items())]


def _nearest(recs: list[dict], size: int) -> dict | None:
    return min(recs, key=lambda r: (abs(r["size"] - size), r["size"])) if recs else None


def headline(records: list[dict]) -> list[list[str]]:
    """A row per series at its smallest size (and, for bandwidth, its
    largest): experiment, series, size, value, unit."""
    rows = []
    by: dict[tuple, list[dict]] = defaultdict(list)
    for r in _measured(records):
        by[(r["experiment"], series_key(r))].append(r)
    for (exp, key), recs in sorted(by.items(), key=lambda kv: (kv[0][0], series_label(kv[0][1]))):
        recs.sort(key=lambda r: r["size"])
        picks = [recs[-1]] if recs[0]["metric"] == "bandwidth_MBps" else [recs[0]]
        for r in picks:
            flag = " (oversubscribed)" if oversubscribed(r) else ""
            rows.append([exp, series_label(key) + flag, str(r["size"]), f"{r['value']:.4g}",
                         r["unit"]])
    return rows


@dataclass
class Claim:
    claim: str
    paper: str
    measured: str
    note: str


def _claim(claim: str, paper: str, needs: str, found: tuple[str, str] | None) -> Claim:
    """The claim with this run's (measured, note), or why the run cannot say."""
    if found is None:
        return Claim(claim, paper, f"not in this run (needs {needs})", "")
    return Claim(claim, paper, *found)


def _largest_pair(a: list[dict], b: list[dict]) -> tuple[dict, dict] | None:
    """The records of a and b at the largest size (and np) both have."""
    common = sorted({(r["np"], r["size"]) for r in a} & {(r["np"], r["size"]) for r in b},
                    key=lambda k: (k[1], -k[0]))
    if not common:
        return None
    np_, size = common[-1]
    return (next(r for r in a if (r["np"], r["size"]) == (np_, size)),
            next(r for r in b if (r["np"], r["size"]) == (np_, size)))


def claims(records: list[dict]) -> list[Claim]:
    """Each headline claim of the papers next to this machine's figure, or
    why it could not be computed from this run."""
    out = []
    # relaxed vs strict ordering (one-sided rate)
    rel = _find(records, experiment="msgrate", impl="ordo", paradigm="one-sided",
                order="relaxed")
    strict = _find(records, experiment="msgrate", impl="ordo", paradigm="one-sided",
                   order="strict")
    pairs = [(a, b) for a in rel for b in strict
             if (a["size"], a.get("variant"), a["window"]) ==
             (b["size"], b.get("variant"), b["window"])]
    found = None
    if pairs:
        a, b = max(pairs, key=lambda p: p[0]["value"] / p[1]["value"])
        found = (f"{a['value'] / b['value']:.2f}x ({a.get('variant')}, {a['size']} B, "
                 f"W={a['window']})", "best of the variants measured")
    out.append(_claim("Relaxed vs strict ordering, one-sided throughput", "up to 4.6x",
                      "msgrate", found))
    # one- vs two-sided message rate
    for size, paper in ((8, "5x"), (2048, "10x")):
        one = _nearest(_find(records, experiment="msgrate", impl="ordo", paradigm="one-sided",
                             order="relaxed", variant="put"), size)
        two = _nearest(_find(records, experiment="msgrate", impl="ordo",
                             paradigm="two-sided"), size)
        found = None
        if one and two and one["size"] == two["size"]:
            found = (f"{one['value'] / two['value']:.2f}x at {one['size']} B",
                     "ordo put (relaxed) vs ordo send/recv")
        out.append(_claim(f"One- vs two-sided message rate at {size} B", paper,
                          "msgrate at one size", found))
    # bandwidth lost by two-sided
    bw = _largest_pair(_find(records, experiment="put_bw", impl="ordo", order="default"),
                       _find(records, experiment="bw", impl="ordo"))
    found = None
    if bw:
        p, t = bw
        found = (f"{100 * (1 - t['value'] / p['value']):.0f}% at {p['size']} B",
                 "ordo send/recv vs ordo put")
    out.append(_claim("Bandwidth lost by two-sided vs one-sided", "up to 30%",
                      "bw and put_bw at one size", found))
    # atomic vs message barrier
    tree = _find(records, experiment="barrier", impl="ordo", variant="tree")
    diss = _find(records, experiment="barrier", impl="ordo", variant="dissemination")
    found = None
    if tree and diss:
        t, d = tree[0], diss[0]
        found = (f"{100 * (1 - t['value'] / d['value']):.0f}% faster at np={t['np']}",
                 "oversubscribed" if oversubscribed(t) else "")
    out.append(_claim("Atomic (fan-in/fan-out) vs message barrier", "39% faster",
                      "barrier with tree and dissemination", found))
    # lock-put-unlock vs send-recv halo
    best = None
    for impl in ("ordo", "openmpi", "mpich"):
        sr = _find(records, experiment="halo", impl=impl, variant="sendrecv")
        lk = _find(records, experiment="halo", impl=impl, variant="put-lock-shared-nb")
        for a in sr:
            for b in lk:
                if (a["size"], a["pairs"], a["np"]) == (b["size"], b["pairs"], b["np"]):
                    ratio = a["stats"]["min"] / b["stats"]["min"]
                    if best is None or (b["pairs"], -b["size"]) > (best[1]["pairs"],
                                                                   -best[1]["size"]):
                        best = (impl, b, ratio)
    found = None
    if best:
        impl, b, ratio = best
        found = (f"{ratio:.2f}x ({impl}, {b['pairs']} partners, {b['size']} B)",
                 "min of averages" + ("; oversubscribed" if oversubscribed(b) else ""))
    out.append(_claim("Lock-put-unlock vs send-recv halo", "2x to 10x", "halo", found))
    return out + _later_claims(records)


def _later_claims(records: list[dict]) -> list[Claim]:
    """The PGAS'11 and IPDPS'14 claims measured by the overlap, transpose,
    stream and regcost experiments."""
    out = []
    ov = _largest_pair(_find(records, experiment="overlap", impl="ordo", variant="put"),
                       _find(records, experiment="overlap", impl="ordo", variant="isend"))
    found = None
    if ov:
        p, t = ov
        found = (f"put {p['value']:.2f} vs isend {t['value']:.2f} at {p['size']} B",
                 "ordo, overlapped fraction")
    out.append(_claim("Overlap of large transfers: one-sided excellent, MPI almost none",
                      "PGAS ~1 vs MPI ~0", "overlap", found))
    ft = "FT transpose with gets instead of alltoall"
    for impl in ("ordo", "openmpi", "mpich"):
        pair = _largest_pair(_find(records, experiment="transpose", impl=impl,
                                   variant="alltoall"),
                             _find(records, experiment="transpose", impl=impl, variant="get"))
        if pair:
            a, g = pair
            out.append(_claim(ft, "2.6x at 16K cores", "transpose",
                              (f"{a['value'] / g['value']:.2f}x ({impl}, np={a['np']}, "
                               f"{a['size']} B blocks)",
                               "oversubscribed" if oversubscribed(a) else "")))
    if not any(c.claim == ft for c in out):
        out.append(_claim(ft, "2.6x at 16K cores", "transpose", None))
    st = _largest_pair(_find(records, experiment="stream", impl="ordo",
                             variant="triad-pipelined"),
                       _find(records, experiment="stream", impl="ordo", variant="triad-naive"))
    found = None
    if st:
        p, n = st
        found = (f"{p['value'] / n['value']:.2f}x at {p['size']} B arrays",
                 "ordo; pipelining needs spare cores for the engines")
    out.append(_claim("STREAM triad over one-sided: pipelined vs naive", "over 3x", "stream",
                      found))
    rc = _largest_pair(_find(records, experiment="regcost", impl="ordo",
                             variant="get-non-shared"),
                       _find(records, experiment="regcost", impl="ordo", variant="get-shared"))
    found = None
    if rc:
        u, sh = rc
        found = (f"{100 * (u['value'] / sh['value'] - 1):+.0f}% at {u['size']} B",
                 "ordo, aggregate bandwidth")
    out.append(_claim("Get into non-shared (unregistered) memory vs shared", "about -7%",
                      "regcost", found))
    return out


def machine(records: list[dict]) -> dict:
    env = next((r["env"] for r in records if r.get("env")), {})
    return {"cpu": env.get("cpu", "unknown"), "cores": env.get("cores", "?"),
            "kernel": env.get("kernel", "?"), "host": env.get("host", "?"),
            "binding": env.get("binding", "?")}


# ------------------------------------------------------------------ writing

def _md_table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _html_table(head: list[str], rows: list[list[str]]) -> str:
    h = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>"


def write(run_dir: Path) -> dict:
    """Draw the figures and write report.md and report.html; returns the
    tables (for the terminal)."""
    run_dir = Path(run_dir)
    records, manifest = load(run_dir)
    figs = figures(records, run_dir / "figures")
    head = headline(records)
    cl = claims(records)
    lg_cols, lg_rows = loggp.table(loggp.fit(records))
    m = machine(records)
    over = sorted({r["experiment"] for r in _measured(records) if oversubscribed(r)})
    skipped = manifest.get("skipped", [])
    errors = manifest.get("errors", [])
    skip_rows = [[s["experiment"], s.get("impl") or "all", s["reason"]] for s in skipped]
    # points a program could not measure (a feature its library lacks), once per reason
    for r in records:
        if r.get("value") is None and r.get("skipped"):
            row = [r["experiment"], f"{r['impl']} ({r.get('variant') or r['paradigm']})",
                   r["skipped"]]
            if row not in skip_rows:
                skip_rows.append(row)
    err_rows = [[e["experiment"], e["impl"], e["error"].splitlines()[0] if e["error"] else ""]
                for e in errors]
    claim_rows = [[c.claim, c.paper, c.measured, c.note] for c in cl]
    head_cols = ["experiment", "series", "size (B)", "value", "unit"]
    claim_cols = ["claim", "papers", "this machine", "note"]
    machine_line = (f"{m['cpu']}, {m['cores']} cores, kernel {m['kernel']}, host {m['host']}, "
                    f"binding {m['binding']}")
    warn = (f"Runs with more ranks than cores are oversubscribed — correct, but their times say "
            f"nothing about speed: {', '.join(over)}." if over else "")
    title = f"ordo-bench report — suite {manifest.get('suite', '?')}"

    md = [f"# {title}", "", f"Machine: {machine_line}.", ""]
    if warn:
        md += [f"**Warning.** {warn}", ""]
    md += ["## Claims of the papers", "", _md_table(claim_cols, claim_rows), "",
           "## Headline figures", "", _md_table(head_cols, head), ""]
    if lg_rows:
        md += ["## LogGP parameters", "", _md_table(lg_cols, lg_rows), "",
               "L, o, g in microseconds, G in nanoseconds per byte (ordo-bench loggp).", ""]
    md += ["## Figures", ""]
    for exp, t, png in figs:
        md += [f"### {t}", "", f"![{exp}]({png})", ""]
    if skip_rows:
        md += ["## Skipped", "", _md_table(["experiment", "impl", "why"], skip_rows), ""]
    if err_rows:
        md += ["## Failed", "", _md_table(["experiment", "impl", "error"], err_rows), ""]
    (run_dir / "report.md").write_text("\n".join(md))

    style = ("body{font-family:sans-serif;max-width:1100px;margin:auto;padding:1em}"
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
             "padding:4px 8px;text-align:left}th{background:#eee}img{max-width:100%}"
             ".warn{background:#fff3cd;padding:.5em}")
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
             f"</title><style>{style}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p>Machine: {html.escape(machine_line)}.</p>"]
    if warn:
        parts.append(f"<p class='warn'><b>Warning.</b> {html.escape(warn)}</p>")
    parts += ["<h2>Claims of the papers</h2>", _html_table(claim_cols, claim_rows),
              "<h2>Headline figures</h2>", _html_table(head_cols, head)]
    if lg_rows:
        parts += ["<h2>LogGP parameters</h2>", _html_table(lg_cols, lg_rows)]
    parts.append("<h2>Figures</h2>")
    for exp, t, png in figs:
        parts.append(f"<h3>{html.escape(t)}</h3><img src='{png}' alt='{exp}'>")
    if skip_rows:
        parts += ["<h2>Skipped</h2>", _html_table(["experiment", "impl", "why"], skip_rows)]
    if err_rows:
        parts += ["<h2>Failed</h2>", _html_table(["experiment", "impl", "error"], err_rows)]
    parts.append("</body></html>")
    (run_dir / "report.html").write_text("\n".join(parts))
    return {"headline": (head_cols, head), "claims": (claim_cols, claim_rows),
            "loggp": (lg_cols, lg_rows),
            "skipped": skip_rows, "errors": err_rows, "warning": warn,
            "machine": machine_line}


# ------------------------------------------------------------------ compare

def compare(dir_a: Path, dir_b: Path) -> tuple[list[str], list[list[str]]]:
    """Every point of either run, side by side with B / A, in experiment,
    series and numeric size order; a point only one run has is listed with
    "only in A" / "only in B" instead of a ratio."""
    a, _ = load(dir_a)
    b, _ = load(dir_b)

    def key(r: dict) -> tuple:
        return (r["experiment"], series_key(r), r["size"], r["metric"])

    ia = {key(r): r for r in _measured(a)}
    ib = {key(r): r for r in _measured(b)}
    rows = []
    for k in sorted(ia.keys() | ib.keys(),
                    key=lambda k: (k[0], series_label(k[1]), k[2], k[3])):
        ra, rb = ia.get(k), ib.get(k)
        unit = (ra or rb)["unit"]
        va = f"{ra['value']:.4g}" if ra else "-"
        vb = f"{rb['value']:.4g}" if rb else "-"
        if ra and rb:
            ratio = f"{rb['value'] / ra['value']:.3f}" if ra["value"] else "-"
        else:
            ratio = "only in A" if ra else "only in B"
        rows.append([k[0], series_label(k[1]), str(k[2]), va, vb, ratio, unit])
    return ["experiment", "series", "size (B)", "A", "B", "B/A", "unit"], rows
