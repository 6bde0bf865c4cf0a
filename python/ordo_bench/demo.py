"""`make run` until the measurement suite lands: put/get rates and latency
per ordering mode, as a table."""

from __future__ import annotations

import sys

from .experiments import ORDERS
from .runner import BenchError, run_ordo


def main() -> int:
    try:
        recs = run_ordo("put_latency", "--iters", "50000", "--trials", "5")
        recs += run_ordo("put_rate", "--iters", "10000", "--trials", "5")
        recs += run_ordo("put_bw", "--trials", "5")
    except BenchError as e:
        print(f"ordo demo: {e}", file=sys.stderr)
        return 1
    env = recs[0]["env"]
    print(f"{env['library']} on {env['cpu']} ({env['cores']} cores), 2 ranks\n")
    print(f"{'experiment':<12} {'variant':<14} {'size':>8} {'window':>6} "
          f"{'strict':>10} {'default':>10} {'relaxed':>10}  unit")
    rows: dict[tuple, dict] = {}
    for r in recs:
        if r["impl"] != "ordo":
            continue
        key = (r["experiment"], r["variant"], r["size"], r["window"], r["unit"])
        rows.setdefault(key, {})[r["order"]] = r["value"]
    for (exp, variant, size, window, unit), by_order in rows.items():
        cells = "".join(f"{by_order.get(o, float('nan')):>11.3f}"
                        for o in ORDERS)
        print(f"{exp:<12} {variant:<14} {size:>8} {window:>6}{cells}  {unit}")
    memcpy = [r for r in recs if r["impl"] == "memcpy"]
    if memcpy:
        print(f"\nmemcpy of {memcpy[0]['size']} B in the same run: {memcpy[0]['value']:.0f} MB/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
