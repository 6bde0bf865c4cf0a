"""The report's figures: one per (experiment, metric), drawn so that a
reader sees at a glance what is measured and which way is better.

- Axis labels in words with units; every title says "higher is better" or
  "lower is better".
- A colour per library (the same in every figure, never shared by two
  libraries) and a line style and marker per variant or ordering mode.
- Error bars: the 95% interval of each point's median (stats.median_ci).
- One panel per value of the sweep's other dimensions (variant, and for the
  Figure 2 sweep pairs and window) instead of dozens of series in one axes.
- Log axes where sizes span decades; legends outside the data."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import textwrap
from collections import defaultdict
from pathlib import Path

from . import stats
from .claims import measured, oversubscribed
from .experiments import BY_ID

# metric -> (what, unit, which way is better)
METRICS = {
    "latency_us": ("latency", "µs", "lower"),
    "time_us": ("time", "µs", "lower"),
    "bandwidth_MBps": ("bandwidth", "MB/s", "higher"),
    "rate_Mmsgps": ("message rate", "million messages/s", "higher"),
    "fraction": ("overlapped fraction", "", "higher"),
    "time_per_byte_us": ("time per byte", "µs/B", "lower"),
}

# What a record's size is, where it is not the size of one message.
SIZE_MEANS = {
    ("regcost", "time_us"): "window size per rank (bytes)",
    ("regcost", "bandwidth_MBps"): "transfer size (bytes)",
    ("stream", "bandwidth_MBps"): "array size per rank (bytes)",
    ("transpose", "time_us"): "block size per rank pair (bytes)",
    ("alltoall", "time_us"): "block size per rank pair (bytes)",
    ("halo", "time_us"): "message size per partner (bytes)",
}

LIBRARY_COLOURS = {"ordo": "#1f5fbf", "openmpi": "#d1495b", "mpich": "#2a9d5c",
                   "memcpy": "#7a7a7a", "mpi": "#9b5de5", "ordo-shmem": "#5fa8e0",
                   "openmpi-shmem": "#f08a9a", "openmpi5": "#8c1c13", "mpich5": "#0b6e4f",
                   "impi": "#ff7f11", "ordo-mpi": "#103a7a"}
_SPARE_COLOURS = ("#e09f3e", "#00798c", "#6d597a", "#8d6a9f")
_STYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3)))
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
_LIB_ORDER = ("ordo", "ordo-mpi", "ordo-shmem", "openmpi", "openmpi-shmem", "openmpi5", "mpich",
              "mpich5", "impi", "mpi", "memcpy")


def metric_words(metric: str, unit: str) -> tuple[str, str]:
    """("bandwidth (MB/s)", "higher is better") for a record's metric."""
    what, u, better = METRICS.get(metric, (metric, unit, ""))
    label = f"{what} ({u})" if u else what
    return label, f"{better} is better" if better else ""


def size_words(experiment: str, metric: str) -> str:
    return SIZE_MEANS.get((experiment, metric), "message size (bytes)")


def colour_of(impl: str, seen: dict[str, str]) -> str:
    if impl not in seen:
        taken = set(seen.values())
        colour = LIBRARY_COLOURS.get(impl)
        if colour is None or colour in taken:
            colour = next(c for c in _SPARE_COLOURS + tuple(LIBRARY_COLOURS.values())
                          if c not in taken)
        seen[impl] = colour
    return seen[impl]


def _style_key(r: dict, panel_by_variant: bool) -> str:
    """What tells apart the series of one library within a panel."""
    parts = []
    if not panel_by_variant and r.get("variant"):
        parts.append(r["variant"])
    if r.get("order"):
        parts.append(r["order"])
    if r["impl"] == "memcpy":
        parts = ["local copy"]
    return " ".join(parts) or r.get("paradigm") or ""


def library_rank(impl: str) -> int:
    return _LIB_ORDER.index(impl) if impl in _LIB_ORDER else len(_LIB_ORDER)


def _panels(exp: str, recs: list[dict], sweep: bool) -> tuple[list[tuple], bool]:
    """Panel keys (pairs, window, variant) and whether variants get a panel
    each.  Variants get panels when one axes would hold more than six
    series and there are several sizes to draw lines over."""
    variants = sorted({r.get("variant") or "" for r in recs})
    series = {(r["impl"], r.get("variant"), r.get("order")) for r in recs}
    by_variant = sweep and len(variants) > 1 and len(series) > 6
    pairs = sorted({r.get("pairs") or 0 for r in recs}) if exp in ("fig2", "halo") else [None]
    windows = sorted({r.get("window") or 0 for r in recs}) if exp == "fig2" else [None]
    vs = variants if by_variant else [None]
    return [(p, w, v) for p in pairs for w in windows for v in vs], by_variant


def _panel_title(exp: str, key: tuple) -> str:
    pairs, window, variant = key
    parts = []
    if pairs is not None:
        parts.append(f"{pairs} {'pairs' if exp == 'fig2' else 'partners'}")
    if window is not None:
        parts.append(f"W={window}")
    if variant is not None:
        parts.append(variant or "(no variant)")
    return ", ".join(parts)


def _in_panel(r: dict, key: tuple) -> bool:
    pairs, window, variant = key
    return ((pairs is None or (r.get("pairs") or 0) == pairs) and
            (window is None or (r.get("window") or 0) == window) and
            (variant is None or (r.get("variant") or "") == variant))


def draw(records: list[dict], out: Path) -> list[tuple[str, str, str]]:
    """Draw every figure into out/ (PNG and SVG); returns (experiment,
    title, png path relative to the report), in the order of
    (experiment, metric).  The figures are drawn by a process per core: a
    quick suite's 23 figures take matplotlib half a minute on one core."""
    out.mkdir(parents=True, exist_ok=True)
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in measured(records):
        groups[(r["experiment"], r["metric"], r["unit"])].append(r)
    metrics_of: dict[str, set] = defaultdict(set)
    for r in records:
        if r.get("experiment"):
            metrics_of[r["experiment"]].add(r.get("metric"))
    jobs = [(exp, metric, unit, recs, len(metrics_of[exp]) > 1, out)
            for (exp, metric, unit), recs in sorted(groups.items())]
    workers = min(len(jobs), len(os.sched_getaffinity(0)))
    if workers < 2:
        return [_draw_one(*j) for j in jobs]
    # spawn, not fork: the caller may hold threads or a matplotlib state
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        return list(pool.map(_draw_one, *zip(*jobs)))


def _draw_one(exp: str, metric: str, unit: str, recs: list[dict], several_metrics: bool,
              out: Path) -> tuple[str, str, str]:
    """One figure: every record of one experiment and metric."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullFormatter

    sizes = sorted({r["size"] for r in recs})
    sweep = len(sizes) > 1
    panels, by_variant = _panels(exp, recs, sweep)
    ncols = min(len(panels), 3)
    nrows = (len(panels) + ncols - 1) // ncols
    width = max(8.0, 4.6 * ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, 3.6 * nrows + 1.2),
                             squeeze=False)
    colours: dict[str, str] = {}
    styles: dict[str, int] = {}
    handles: dict[str, object] = {}
    ylabel, better = metric_words(metric, unit)
    for ax, key in zip(axes.flat, panels):
        mine = [r for r in recs if _in_panel(r, key)]
        series: dict[tuple, list[dict]] = defaultdict(list)
        for r in mine:
            series[(r["impl"], _style_key(r, by_variant), r["np"])].append(r)
        order = sorted(series, key=lambda k: (library_rank(k[0]), k[1], k[2]))
        if sweep:
            for k in order:
                pts = sorted(series[k], key=lambda r: r["size"])
                xs = [r["size"] for r in pts]
                ys = [r["value"] for r in pts]
                cis = [stats.median_ci(r) for r in pts]
                err = [[max(y - lo, 0) for y, (lo, _) in zip(ys, cis)],
                       [max(hi - y, 0) for y, (_, hi) in zip(ys, cis)]]
                si = styles.setdefault(k[1], len(styles))
                label = " ".join(p for p in (k[0], k[1], f"np={k[2]}" if k[2] != 2
                                             else "") if p)
                h = ax.errorbar(xs, ys, yerr=err, color=colour_of(k[0], colours),
                                linestyle=_STYLES[si % len(_STYLES)],
                                marker=_MARKERS[si % len(_MARKERS)], markersize=4,
                                capsize=2, linewidth=1.3, label=label)
                handles.setdefault(label, h)
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _bytes_tick(v)))
            if metric != "fraction" and _spans_decades(mine):
                ax.set_yscale("log")
                ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: stats.fmt(v)))
                ax.yaxis.set_minor_formatter(NullFormatter())
            ax.set_xlabel(size_words(exp, metric))
            ax.set_ylabel(ylabel)
        else:
            labels, ys, errs, cols = [], [], [[], []], []
            for k in order:
                r = series[k][0]
                lo, hi = stats.median_ci(r)
                labels.append(" ".join(p for p in (k[0], k[1] if k[1] != r["paradigm"]
                                                   else r.get("variant") or "") if p))
                ys.append(r["value"])
                errs[0].append(max(r["value"] - lo, 0))
                errs[1].append(max(hi - r["value"], 0))
                cols.append(colour_of(k[0], colours))
            ax.barh(labels, ys, xerr=errs, color=cols, capsize=3)
            ax.invert_yaxis()
            ax.set_xlabel(ylabel)
            if sizes[0]:
                ax.set_title(f"{sizes[0]} B", fontsize=9)
        t = _panel_title(exp, key)
        if t:
            ax.set_title(t, fontsize=9)
        ax.grid(True, which="major", alpha=0.3)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    title = BY_ID[exp].title if exp in BY_ID else exp
    if several_metrics:
        title += f": {ylabel.split(' (')[0]}"
    title += f" — {better}" if better else ""
    if any(oversubscribed(r) for r in recs):
        title += " (oversubscribed: not a speed figure)"
    fig.suptitle("\n".join(textwrap.wrap(title, int(width * 11))), fontsize=11)
    if handles:
        ncol = max(1, min(len(handles), int(width // 2.6)))
        fig.legend(list(handles.values()), list(handles), fontsize=8, ncol=ncol,
                   loc="lower center", frameon=False)
        legend_rows = (len(handles) + ncol - 1) // ncol
        fig.tight_layout(rect=(0, 0.035 + 0.045 * legend_rows / nrows, 1, 0.96))
    else:
        fig.tight_layout(rect=(0, 0, 1, 0.96))
    name = f"{exp}_{metric}"
    fig.savefig(out / f"{name}.png", dpi=100)
    fig.savefig(out / f"{name}.svg")
    plt.close(fig)
    return (exp, title, f"figures/{name}.png")


def _bytes_tick(v: float) -> str:
    """8, 512, 4K, 64K, 2M: sizes as a reader says them."""
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if v >= 1 << shift:
            return f"{v / (1 << shift):g}{unit}"
    return f"{v:g}"


def _spans_decades(recs: list[dict]) -> bool:
    vals = [r["value"] for r in recs if r["value"] > 0]
    return bool(vals) and max(vals) / min(vals) >= 30
