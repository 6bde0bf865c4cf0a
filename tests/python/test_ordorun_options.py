"""ordorun's options as users of mpirun type them: -np, -x, --tag-output,
--version, --help, and the documented exit statuses."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path


def run(bindir: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([str(bindir / "ordorun"), *args], capture_output=True, text=True,
                          timeout=timeout)


def test_np_is_accepted_as_mpirun_spells_it(bindir):
    for spelling in (["-np", "3"], ["--np", "3"], ["-n", "3"], ["-n3"]):
        r = run(bindir, *spelling, "sh", "-c", 'echo "$ORDO_RANK of $ORDO_SIZE"')
        assert r.returncode == 0, (spelling, r.stderr)
        assert sorted(r.stdout.split("\n")[:-1]) == ["0 of 3", "1 of 3", "2 of 3"], spelling


def test_x_sets_and_passes_variables(bindir, monkeypatch):
    monkeypatch.setenv("ORDO_TEST_INHERITED", "from-launcher")
    r = run(bindir, "-n", "2", "-x", "GREETING=hello world", "-x", "EMPTY=",
            "-x", "ORDO_TEST_INHERITED", "sh", "-c",
            'echo "$ORDO_RANK:$GREETING:[$EMPTY]:$ORDO_TEST_INHERITED"')
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.splitlines()) == ["0:hello world:[]:from-launcher",
                                             "1:hello world:[]:from-launcher"]
    # a name that is not one, and a name the launcher lacks
    bad = run(bindir, "-n", "1", "-x", "9LIVES=1", "true")
    assert bad.returncode == 2 and "-x takes NAME" in bad.stderr
    missing = run(bindir, "-n", "1", "-x", "ORDO_TEST_SURELY_UNSET", "true")
    assert missing.returncode == 0 and "not set here" in missing.stderr


def test_tag_output_prefixes_every_line_of_both_streams(bindir):
    script = 'for i in 1 2 3; do echo "line $i"; done; printf "no newline"; echo oops >&2'
    r = run(bindir, "-n", "3", "--tag-output", "sh", "-c", script)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    for rank in range(3):
        mine = [ln for ln in out if ln.startswith(f"[{rank}] ")]
        assert mine == [f"[{rank}] line 1", f"[{rank}] line 2", f"[{rank}] line 3",
                        f"[{rank}] no newline"], out
        assert f"[{rank}] oops" in r.stderr.splitlines()
    assert len(out) == 12 and all(ln.startswith("[") for ln in out)


def test_tag_output_keeps_the_exit_status_and_long_lines(bindir):
    # a rank's non-zero exit ends the job (the others may be killed first)
    r = run(bindir, "-n", "2", "--tag-output", "sh", "-c", "echo hi; exit 5")
    assert r.returncode == 5
    r = run(bindir, "-n", "2", "--tag-output", "sh", "-c",
            'head -c 200000 /dev/zero | tr "\\0" a; echo')
    assert r.returncode == 0, r.stderr
    pieces = r.stdout.splitlines()
    assert all(re.fullmatch(r"\[[01]\] a+", p) for p in pieces), pieces[:3]
    assert sum(len(p) - 4 for p in pieces) == 2 * 200000


def test_version_and_help(bindir):
    v = run(bindir, "--version")
    assert v.returncode == 0 and re.fullmatch(r"ordorun \(ordo\) \d+\.\d+\.\d+\n", v.stdout)
    h = run(bindir, "--help")
    assert h.returncode == 0
    for option in ("-n N", "-np N", "--nodes", "--netns", "--bind", "--on-failure", "-x NAME",
                   "--tag-output", "--verbose", "--version", "--help", "exit status"):
        assert option in h.stdout, option


def test_exit_statuses_are_as_documented(bindir):
    assert run(bindir, "-n", "2", "true").returncode == 0
    assert run(bindir, "-n", "2", "sh", "-c", "exit 3").returncode == 3
    assert run(bindir, "-n", "1", "sh", "-c", "kill -KILL $$").returncode == 128 + 9
    assert run(bindir, "-n", "1", "/nonexistent/prog").returncode == 127
    assert run(bindir, "-n", "0", "true").returncode == 2
    assert run(bindir, "--no-such-option", "-n", "1", "true").returncode == 2
