"""report.html in a real browser (headless Chromium): it loads without a
script error and every figure decodes (the report's own load check writes
both into <body data-...>, which --dump-dom shows after the page ran)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from ordo_bench import report

FIXTURE = Path(__file__).parent / "fixtures" / "quick"


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        exe = shutil.which(name)
        if exe:
            return exe
    pytest.fail("no headless browser: make test installs Debian's chromium "
                "(scripts/deps.sh test)")


def _render(page: Path, tmp_path: Path) -> tuple[str, str]:
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000",
           "--dump-dom", page.resolve().as_uri()]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    body = re.search(r"<body([^>]*)>", out.stdout)
    assert body, out.stdout[:500]
    return body.group(1), out.stdout


def test_report_loads_in_a_browser_with_every_figure(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(FIXTURE, run)
    report.write(run)
    attrs, dom = _render(run / "report.html", tmp_path)
    figures = re.search(r'data-figures="(\d+)/(\d+)"', attrs)
    assert figures, f"the page's load check did not run: {attrs}"
    shown, total = map(int, figures.groups())
    assert total == len(list((run / "figures").glob("*.png"))) >= 10
    assert shown == total
    assert "data-errors" not in attrs
    assert "Summary" in dom and "Claims of the papers" in dom


def test_the_check_sees_a_missing_figure(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(FIXTURE, run)
    report.write(run)
    victim = next((run / "figures").glob("*.png"))
    victim.unlink()
    attrs, _ = _render(run / "report.html", tmp_path)
    shown, total = map(int, re.search(r'data-figures="(\d+)/(\d+)"', attrs).groups())
    assert shown == total - 1
