"""`make bench`: ordo's one-sided figures next to ucx_perftest and memcpy,
measured in one run with the same method, as ratios (the goals of the
foundation issue)."""

from __future__ import annotations

import json
import sys

from .runner import BenchError, run_ordo, run_ucx_perftest


def measure() -> dict:
    lat = run_ordo("put_latency", "--iters", "200000", "--trials", "7")[0]["value"]
    ucx_lat = run_ucx_perftest("ucp_put_lat", 8, 200000)
    rate = {r["order"]: r["value"] for r in
            run_ordo("put_rate", "--iters", "40000", "--trials", "7", "--window", "64")
            if r["variant"] == "put"}
    ucx_rate = run_ucx_perftest("ucp_put_bw", 8, 2000000, window=64) / 1e6
    bw = run_ordo("put_bw", "--trials", "7", "--size", str(1 << 20))
    memcpy_bw = next(r["value"] for r in bw if r["impl"] == "memcpy")
    put_bw = {r["order"]: r["value"] for r in bw if r["impl"] == "ordo"}
    return {
        "put_latency_us": {"ordo": lat, "ucx": ucx_lat, "ratio": lat / ucx_lat,
                           "goal": "<= 1.0"},
        "put_rate_8B_W64_Mmsgps": {"ordo": rate, "ucx": ucx_rate,
                                   "ratio_relaxed": rate["relaxed"] / ucx_rate,
                                   "goal": ">= 1.2"},
        "put_bw_1MiB_MBps": {"ordo": put_bw, "memcpy": memcpy_bw,
                             "ratio_default": put_bw["default"] / memcpy_bw,
                             "goal": ">= 0.9"},
    }


def main() -> int:
    try:
        res = measure()
    except BenchError as e:
        print(f"ordo bench: {e}", file=sys.stderr)
        return 1
    print(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
