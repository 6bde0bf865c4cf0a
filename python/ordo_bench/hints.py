"""What MPI-4's ordering hints buy (the hints experiment, bench/hints.c):
each pair of records that differ only in the hint (variant "<measure>" and
"<measure> with <hint>"), per library, size and transport, as the hinted
form's speed-up with its 95% interval.  A hint is a freedom the program
grants: on ordo's MPI it must never measure slower (invariant.py checks
ordo-mpi's pairs with the others); on another MPI the table only reports."""

from __future__ import annotations

from . import invariant
from .claims import measured, oversubscribed

EXPERIMENT = "hints"
WITH = " with "


def checks(records: list[dict], impls: tuple[str, ...] | None = None) -> list[invariant.Check]:
    """Every (hinted, plain) pair of the libraries named (all when None)."""
    recs = [r for r in measured(records) if r["experiment"] == EXPERIMENT and
            (impls is None or r["impl"] in impls)]

    def key(r: dict, base: str) -> tuple:
        return (r["impl"], base, r["size"], r.get("window"), r["np"], r["metric"],
                invariant.transport(r))

    plain = {key(r, invariant._base_variant(r)): r for r in recs
             if WITH not in invariant._base_variant(r)}
    out = []
    for r in recs:
        base, _, hint = invariant._base_variant(r).partition(WITH)
        other = plain.get(key(r, base)) if hint else None
        if other is None:
            continue
        out.append(invariant.Check(
            invariant.transport(r), f"{r['impl']} {base}", r["size"], hint, "no hint",
            invariant._speedup(r, other), oversubscribed(r) or oversubscribed(other),
            invariant._few(r, other)))
    out.sort(key=lambda c: (c.series.split()[0], c.transport, c.series, c.freer, c.size))
    return out


COLUMNS = ["transport", "library and measure", "size (B)", "hint", "speed-up (95% CI)",
           "verdict"]
WORDS = ("Each hint measured with and without in the same launch, trial by trial: the hinted "
         "form's speed-up with its 95% interval. A hint can buy something only where the "
         "library does work it lets it skip: overtaking, where the transport delivers out of "
         "order (matching holds early messages back) — none of the transports here does; "
         "accumulate_ordering=none, where keeping accumulates in order costs (over a network "
         "whose operations can pass each other); puts are never ordered by MPI, so the hint "
         "cannot speed them up.")


def rows(cs: list[invariant.Check]) -> list[list[str]]:
    return [[c.transport, c.series, str(c.size), c.freer, c.speedup.text(),
             c.verdict.lower() if c.verdict != "SLOWER" else "slower" +
             (" (oversubscribed)" if c.oversubscribed else "")] for c in cs]
