"""The browser of the web pages' tests: Debian's chromium driven by Playwright (never
a downloaded browser), and axe-core from the cache ``.ci/browser`` fills."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PINS = Path(__file__).parent / "axe"


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"no {CHROMIUM}: Debian's chromium is not installed (.ci/browser installs it)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[dev]')"
    return None


async def launch(playwright: Any) -> Any:
    return await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)


def axe_source() -> str:
    """axe-core's script, installed from the pinned lock on first use (``npm ci``)."""
    lock = PINS / "package-lock.json"
    key = hashlib.sha256(lock.read_bytes()).hexdigest()[:16]
    base = Path(os.environ.get("GARNET_CACHE") or Path.home() / ".cache" / "garnet")
    target = base / f"browser-{key}"
    script = target / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(PINS / "package.json", target)
        shutil.copy(lock, target)
        subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"],
                       cwd=target, check=True, timeout=300)
    return script.read_text(encoding="utf-8")
