"""The report of a run, written as report.md and report.html from
results.jsonl (so `ordo-bench report DIR` redraws a saved run): at the top
the summary table (claims.py) with failures and skipped points right under
it, then the claims of the papers, the LogGP fit and a figure per
experiment (figures.py), each value with its 95% interval (stats.py)."""

from __future__ import annotations

import html
import json
from collections import defaultdict
from pathlib import Path

from . import claims as claim_defs
from . import figures, hints, invariant, loggp, stats


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
    if pairs and pairs > 1:
        parts.append(f"{pairs} pairs")
    if window and window > 1:
        parts.append(f"W={window}")
    if np != 2:
        parts.append(f"np={np}")
    return " ".join(parts)


oversubscribed = claim_defs.oversubscribed
_measured = claim_defs.measured


# ------------------------------------------------------------------ tables

claims = claim_defs.claims


def osu_tables(records: list[dict]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Tables as the OSU benchmarks print them: a row per size, a column per
    library (and ordering mode), medians.  One table per experiment, metric,
    pairs, window and ranks, and per variant where every library measured
    it; variants that only some libraries have (their own algorithms) share
    one table, the variant named in the column."""
    out = []
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in _measured(records):
        groups[(r["experiment"], r["metric"], r.get("pairs") or 0, r.get("window") or 0,
                r["np"])].append(r)
    for (exp, metric, pairs, window, np_), recs in sorted(groups.items()):
        impls = {r["impl"] for r in recs if r["impl"] != "memcpy"}
        has = defaultdict(set)
        for r in recs:
            has[r.get("variant") or ""].add(r["impl"])
        common = sorted(v for v, who in has.items() if impls <= who)
        tables = [(v, [r for r in recs if (r.get("variant") or "") == v]) for v in common]
        rest = [r for r in recs if (r.get("variant") or "") not in common]
        if rest:
            tables.append((None, rest))
        label, better = figures.metric_words(metric, recs[0]["unit"])
        for variant, mine in tables:
            def col(r: dict, named: bool = variant is None) -> tuple:
                return (r["impl"], (r.get("variant") or "") if named else "",
                        r.get("order") or "")
            cols = sorted({col(r) for r in mine}, key=lambda c: (figures.library_rank(c[0]), c))
            by = {(col(r), r["size"]): r["value"] for r in mine}
            sizes = sorted({r["size"] for r in mine})
            where = ", ".join(x for x in (variant or "", f"{pairs} pairs" if pairs > 1 else "",
                                          f"W={window}" if window > 1 else "",
                                          f"np={np_}" if np_ != 2 else "") if x)
            title = f"{exp}{' (' + where + ')' if where else ''}: {label}, {better}"
            head = [figures.size_words(exp, metric)] + [" ".join(x for x in c if x)
                                                       for c in cols]
            rows = [[str(size)] + [stats.fmt(by[(c, size)]) if (c, size) in by else "–"
                                   for c in cols] for size in sizes]
            out.append((title, head, rows))
    return out


def problems(records: list[dict], manifest: dict) -> tuple[list[list[str]], list[list[str]]]:
    """(failed, skipped) rows for the block under the summary: each failure
    with the tail of its stderr (the whole of it is in run.json)."""
    failed = []
    for e in manifest.get("errors", []):
        lines = [ln for ln in (e.get("error") or "").splitlines() if ln.strip()]
        what = f"{e['experiment']} ({e['impl']}" + (f", {e['size']} B" if e.get("size") else "")
        failed.append([what + ")", lines[0] if lines else "", "\n".join(lines[1:][-6:])])
    skipped = [[s["experiment"], s.get("impl") or "all", s["reason"]]
               for s in manifest.get("skipped", [])]
    for r in records:
        if r.get("value") is None and r.get("skipped"):
            row = [r["experiment"], f"{r['impl']} ({r.get('variant') or r['paradigm']})",
                   r["skipped"]]
            if row not in skipped:
                skipped.append(row)
    return failed, skipped


def machine(records: list[dict]) -> dict:
    env = next((r["env"] for r in records if r.get("env")), {})
    libs = {}
    for r in _measured(records):
        if r["impl"] != "memcpy":           # a local copy, measured by ordo's build
            text = (r.get("env") or {}).get("library", "?")
            libs.setdefault(r["impl"], " ".join(text.split()))   # MPICH's holds a tab
    # what ordo's auto settings came to in its 2-rank runs on one node (the
    # suite's common case; other sizes choose their own, in their records)
    chosen = next((r["env"]["chosen"] for r in _measured(records)
                   if r["impl"] == "ordo" and r["np"] == 2 and (r["env"].get("nodes") or 1) == 1
                   and r["env"].get("chosen")), {})
    congestion = next((r["env"]["tcp_congestion"] for r in _measured(records)
                       if (r.get("env") or {}).get("tcp_congestion")), None)
    return {"cpu": env.get("cpu", "unknown"), "cores": env.get("cores", "?"),
            "kernel": env.get("kernel", "?"), "host": env.get("host", "?"),
            "binding": env.get("binding", "?"), "libraries": libs, "chosen": chosen,
            "tcp_congestion": congestion}


# ------------------------------------------------------------------ writing

def _md_table(head: list[str], rows: list[list[str]]) -> str:
    def cell(c: str) -> str:
        return c.replace("|", "\\|").replace("\n", "<br>")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _html_table(head: list[str], rows: list[list[str]], classes: list[str] | None = None,
                pre_last: bool = False) -> str:
    h = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    body = []
    for i, row in enumerate(rows):
        cls = f" class='{classes[i].replace(' ', '-')}'" if classes and classes[i] else ""
        cells = [f"<td>{html.escape(c)}</td>" for c in row]
        if pre_last and row[-1]:
            cells[-1] = f"<td><pre>{html.escape(row[-1])}</pre></td>"
        body.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{h}</tr></thead><tbody>{''.join(body)}</tbody></table>"


_STYLE = ("body{font-family:system-ui,sans-serif;max-width:1200px;margin:auto;padding:1em;"
          "color:#222}table{border-collapse:collapse;margin:.6em 0;font-size:.9em}"
          "td,th{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}"
          "th{background:#eee}img{max-width:100%;border:1px solid #eee}"
          "tr.better td:last-child{background:#dff3e4}tr.worse td:last-child{"
          "background:#fbe0e0}tr.no-difference-measured td:last-child{background:#f2f2f2}"
          ".warn{background:#fff3cd;padding:.5em}pre{margin:0;font-size:.85em;"
          "white-space:pre-wrap}")

# The report checks itself as it loads: every figure decoded, no script
# error (a headless browser in the tests reads these attributes).
_SELF_CHECK = ("<script>window.addEventListener('error',function(e){"
               "document.body.dataset.errors=(document.body.dataset.errors||'')+e.message+';'},"
               "true);window.addEventListener('load',function(){var i=document.images,ok=0;"
               "for(var k=0;k<i.length;k++){if(i[k].complete&&i[k].naturalWidth>0)ok++;}"
               "document.body.dataset.figures=ok+'/'+i.length;});</script>")


_INVARIANT_WORDS = ("relaxed >= default >= strict and non-blocking >= blocking, for every "
                    "pair of ordo's series that differ only in that freedom, at every size and "
                    "on every transport: the speed-up of the freer form with its 95% interval.")


def write(run_dir: Path) -> dict:
    """Draw the figures and write report.md and report.html; returns the
    tables (for the terminal)."""
    run_dir = Path(run_dir)
    records, manifest = load(run_dir)
    figs = figures.draw(records, run_dir / "figures")
    sum_head, sum_rows, sum_words = claim_defs.summary(records)
    cl = claims(records)
    lg_cols, lg_rows = loggp.table(loggp.fit(records))
    m = machine(records)
    over = sorted({r["experiment"] for r in _measured(records) if oversubscribed(r)})
    failed, skipped = problems(records, manifest)
    claim_rows = [[c.claim, c.paper, c.measured, c.definition, c.note] for c in cl]
    checks = invariant.checks(records)
    inv_rows = invariant.summary(checks)
    bad = invariant.violations(checks)
    bad_rows = [c.row() for c in bad]
    inv_words = (f"{len(bad)} pair(s) where more freedom measured slower, beyond the 95% "
                 "interval:" if bad else
                 (f"In none of {len(checks)} pairs did more freedom measure slower beyond "
                  "the 95% interval." if checks else
                  "No pair of series differing only in ordering or blocking was measured "
                  "(the ordering and shmem experiments measure them)."))
    hint_rows = hints.rows(hints.checks(records))
    claim_cols = ["claim", "papers", "this machine (95% CI)", "computed as", "note"]
    fail_cols = ["failed point", "error", "last lines of its stderr"]
    skip_cols = ["experiment", "impl", "why"]
    trials = sorted({r["stats"]["trials"] for r in _measured(records) if r.get("stats")})
    launches = sorted({r.get("launches") or 1 for r in _measured(records)})
    libs = ", ".join(f"{k}: {v}" for k, v in m["libraries"].items())
    machine_line = (f"{m['cpu']}, {m['cores']} cores, kernel {m['kernel']}, host {m['host']}, "
                    f"ranks bound: {m['binding']}")
    if m.get("tcp_congestion"):
        machine_line += (f", TCP congestion control {m['tcp_congestion']} (paces the runs over "
                         "several nodes)")
    method = (f"Each value is the median of {'/'.join(map(str, trials)) or '?'} trials from "
              f"{'/'.join(map(str, launches))} launch(es) of its program; [brackets]: its 95% "
              "confidence interval (bootstrap over the launches, then the trials within "
              "them); a ratio whose interval holds 1 is shown as no difference measured.")
    if manifest.get("suite") == "quick":
        method += (" This is the quick suite: few trials, so the intervals are wide; "
                   "run --suite paper for figures to quote.")
    warn = (f"Runs with more ranks than cores are oversubscribed — correct, but their times say "
            f"nothing about speed: {', '.join(over)}." if over else "")
    title = f"ordo-bench report — suite {manifest.get('suite', '?')}"

    chosen = "; ".join(f"{k}={v}" for k, v in m["chosen"].items())
    chosen_line = f"ordo's auto settings, 2 ranks on one node: {chosen}." if chosen else ""
    md = [f"# {title}", "", f"Machine: {machine_line}.", "", f"Libraries: {libs}.", ""]
    if chosen_line:
        md += [chosen_line, ""]
    md += [method, ""]
    if warn:
        md += [f"**Warning.** {warn}", ""]
    md += ["## Summary", "", _md_table(sum_head, sum_rows), ""]
    if failed:
        md += [f"**{len(failed)} point(s) failed** (whole stderr in run.json):", "",
               _md_table(fail_cols, failed), ""]
    if skipped:
        md += [f"{len(skipped)} skipped:", "", _md_table(skip_cols, skipped), ""]
    md += ["## More freedom is never slower", "", _INVARIANT_WORDS, "", inv_words, ""]
    if inv_rows:
        md += [_md_table(invariant.SUMMARY_COLUMNS, inv_rows), ""]
    if bad_rows:
        md += [_md_table(invariant.COLUMNS, bad_rows), ""]
    if hint_rows:
        md += ["## What MPI's ordering hints buy", "", hints.WORDS, "",
               _md_table(hints.COLUMNS, hint_rows), ""]
    md += ["## Claims of the papers", "", _md_table(claim_cols, claim_rows), ""]
    if lg_rows:
        md += ["## LogGP parameters", "", _md_table(lg_cols, lg_rows), "",
               "L, o, g in microseconds, G in nanoseconds per byte; n/d: not determined "
               "(the inputs contradict the model, see docs/benchmarks.md).", ""]
    md += ["## Figures", "", "Error bars: 95% confidence interval of the median.", ""]
    for exp, t, png in figs:
        md += [f"### {t}", "", f"![{exp}]({png})", ""]
    (run_dir / "report.md").write_text("\n".join(md))

    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
             f"</title><style>{_STYLE}</style>{_SELF_CHECK}</head><body>"
             f"<h1>{html.escape(title)}</h1>",
             f"<p>Machine: {html.escape(machine_line)}.<br>Libraries: {html.escape(libs)}."
             + (f"<br>{html.escape(chosen_line)}" if chosen_line else "") + "</p>",
             f"<p>{html.escape(method)}</p>"]
    if warn:
        parts.append(f"<p class='warn'><b>Warning.</b> {html.escape(warn)}</p>")
    parts += ["<h2>Summary</h2>", _html_table(sum_head, sum_rows, sum_words)]
    if failed:
        parts += [f"<p><b>{len(failed)} point(s) failed</b> (whole stderr in run.json):</p>",
                  _html_table(fail_cols, failed, pre_last=True)]
    if skipped:
        parts += [f"<p>{len(skipped)} skipped:</p>", _html_table(skip_cols, skipped)]
    parts += ["<h2>More freedom is never slower</h2>", f"<p>{html.escape(_INVARIANT_WORDS)}</p>",
              f"<p{' class=warn' if bad else ''}>{html.escape(inv_words)}</p>"]
    if inv_rows:
        parts.append(_html_table(invariant.SUMMARY_COLUMNS, inv_rows))
    if bad_rows:
        parts.append(_html_table(invariant.COLUMNS, bad_rows, ["worse"] * len(bad_rows)))
    if hint_rows:
        parts += ["<h2>What MPI's ordering hints buy</h2>", f"<p>{html.escape(hints.WORDS)}</p>",
                  _html_table(hints.COLUMNS, hint_rows)]
    parts += ["<h2>Claims of the papers</h2>", _html_table(claim_cols, claim_rows)]
    if lg_rows:
        parts += ["<h2>LogGP parameters</h2>", _html_table(lg_cols, lg_rows),
                  "<p>L, o, g in microseconds, G in nanoseconds per byte; n/d: not determined "
                  "(the inputs contradict the model).</p>"]
    parts.append("<h2>Figures</h2><p>Error bars: 95% confidence interval of the median.</p>")
    for exp, t, png in figs:
        parts.append(f"<h3>{html.escape(t)}</h3><img src='{png}' alt='{exp}'>")
    parts.append("</body></html>")
    (run_dir / "report.html").write_text("\n".join(parts))
    return {"summary": (sum_head, sum_rows), "claims": (claim_cols, claim_rows),
            "invariant": (invariant.SUMMARY_COLUMNS, inv_rows),
            "hints": (hints.COLUMNS, hint_rows),
            "violations": (invariant.COLUMNS, bad_rows),
            "loggp": (lg_cols, lg_rows), "osu": osu_tables(records),
            "skipped": skipped, "errors": failed, "warning": warn,
            "machine": machine_line, "method": method}


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


def compare_claims(dir_a: Path, dir_b: Path) -> tuple[list[str], list[list[str]]]:
    """The claims of two runs side by side, and whether their 95% intervals
    overlap (two runs of one machine should agree on every claim)."""
    a, _ = load(dir_a)
    b, _ = load(dir_b)
    rows = []
    for ca, cb in zip(claims(a), claims(b)):
        agree = ca.agrees_with(cb)
        rows.append([ca.claim, ca.definition, ca.measured, cb.measured,
                     {True: "yes", False: "NO", None: "-"}[agree]])
    return ["claim", "computed as", "A", "B", "intervals overlap"], rows
