"""The LogGP fit: parameters recovered exactly from records made from known
L, o, g and G; nothing guessed when inputs are missing; its records valid."""

from __future__ import annotations

import pytest
from ordo_bench import loggp
from ordo_bench.runner import validate

ENV = {"library": "test", "cpu": "test", "cores": 2, "kernel": "x", "host": "x",
       "binding": "core", "settings": {}}
LAT, OVH, G_MSG, G_BYTE = 0.4, 0.1, 0.05, 0.0002     # us, us, us, us/byte


def rec(experiment, paradigm, size, metric, value, impl="openmpi", variant=None, order=None,
        window=1, pairs=1):
    return {"schema": "ordo-bench/1", "experiment": experiment, "impl": impl,
            "paradigm": paradigm, "variant": variant, "order": order, "np": 2, "pairs": pairs,
            "window": window, "size": size, "metric": metric,
            "unit": {"latency_us": "us", "time_us": "us", "rate_Mmsgps": "Mmsg/s",
                     "bandwidth_MBps": "MB/s"}[metric],
            "value": value, "stats": {"median": value, "min": value, "max": value,
                                      "mean": value, "p99": value, "trials": 1},
            "samples": [value], "env": ENV}


def two_sided(impl="openmpi"):
    sizes = (8, 1024, 65536, 1 << 20)
    recs = [rec("latency", "two-sided", s, "latency_us", LAT + 2 * OVH + s * G_BYTE, impl)
            for s in sizes]
    recs.append(rec("overlap", "two-sided", 8, "time_us", OVH, impl, variant="isend-issue"))
    recs.append(rec("overlap", "two-sided", 65536, "time_us", 9 * OVH, impl,
                    variant="isend-issue"))
    recs.append(rec("msgrate", "two-sided", 8, "rate_Mmsgps", 1 / G_MSG, impl,
                    variant="isend", window=64))
    recs.append(rec("msgrate", "two-sided", 8, "rate_Mmsgps", 1 / (4 * G_MSG), impl,
                    variant="isend", window=1))
    recs.append(rec("bw", "two-sided", 1 << 20, "bandwidth_MBps", 1 / G_BYTE, impl))
    recs.append(rec("bw", "two-sided", 4096, "bandwidth_MBps", 100.0, impl))
    return recs


def test_fit_recovers_known_parameters():
    recs = two_sided()
    # a protocol switch below 64 KiB must not bend G or L
    recs.append(rec("latency", "two-sided", 16384, "latency_us", 50.0))
    (f,) = loggp.fit(recs)
    assert (f.impl, f.paradigm) == ("openmpi", "two-sided")
    assert f.values["o"] == pytest.approx(OVH)             # smallest size's issue time
    assert f.values["L"] == pytest.approx(LAT)
    assert f.values["G"] == pytest.approx(G_BYTE)
    assert f.values["g"] == pytest.approx(G_MSG)         # the widest window
    assert f.values["G_bw"] == pytest.approx(G_BYTE)     # the largest size
    assert any("latency" in s for s in f.sources["L"]) and f.sources["o"]


def test_one_sided_uses_the_default_order_for_ordo():
    recs = [rec("put_latency", "one-sided", s, "latency_us", LAT + 2 * OVH + s * G_BYTE, "ordo",
                variant="pingpong", order=order)
            for s in (8, 4096) for order in ("default",)]
    recs += [rec("put_latency", "one-sided", 8, "latency_us", 99.0, "ordo", variant="pingpong",
                 order="strict")]
    recs.append(rec("overlap", "one-sided", 8, "time_us", OVH, "ordo", variant="put-issue"))
    (f,) = loggp.fit(recs)
    assert f.paradigm == "one-sided"
    # no ping-pong at 64 KiB or more: no G from it, L from the 8 B point alone
    assert "G" not in f.values and "g" not in f.values and "G_bw" not in f.values
    assert f.values["L"] == pytest.approx(LAT + 8 * G_BYTE)


def test_missing_inputs_are_left_out_not_guessed():
    recs = [r for r in two_sided() if r["experiment"] != "overlap"]
    (f,) = loggp.fit(recs)
    assert "o" not in f.values and "L" not in f.values   # L needs o
    assert {"g", "G", "G_bw"} <= set(f.values)
    assert loggp.fit([]) == []
    head, rows = loggp.table([f])
    assert rows[0][head.index("L (us)")] == "-"


def test_fit_records_validate():
    fits = loggp.fit(two_sided("openmpi") + two_sided("ordo"))
    recs = loggp.records_of(fits, "quick")
    assert {r["impl"] for r in recs} == {"openmpi", "ordo"}
    assert {r["variant"] for r in recs} == set(loggp.PARAMS)
    for r in recs:
        validate(r)
        per_byte = r["variant"].startswith("G")
        assert r["derived_from"] and r["unit"] == ("us/B" if per_byte else "us")
        assert r["metric"] == ("time_per_byte_us" if per_byte else "time_us")


def test_latency_below_twice_the_overhead_leaves_l_undetermined_not_zero():
    recs = two_sided()
    for r in recs:
        if r["experiment"] == "overlap":
            r["value"] = r["stats"]["median"] = 10.0      # 2o far above the latency
    (f,) = loggp.fit(recs)
    assert "L" not in f.values and "2o" in f.undetermined["L"]
    head, rows = loggp.table([f])
    assert rows[0][head.index("L (us)")] == "n/d"
