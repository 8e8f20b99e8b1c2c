"""Several bot processes through one shared Discord REST proxy (``--processes N --proxy``).

Between the processes and Discord (each process's fake) stand, for real:
``@discordjs/proxy`` (``tests/proxy``, installed by ``.ci/proxy``) and behind it the
meter (``tests/fake/discord_meter.py``), which keeps the token's limits as Discord does
and counts the 429s it had to give. Each process sends at the whole global limit
(``GLOBAL_REQUESTS_PER_SECOND`` = 50, its own pacer ordering its requests); the proxy
holds the sum to the limit. Without ``--proxy`` each process takes a fixed share
(50 ÷ processes), which wastes what an idle one leaves.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]


def proxy_dir() -> Path | None:
    """Where ``.ci/proxy`` installed @discordjs/proxy (None: not installed, or no node)."""
    if shutil.which("node") is None:
        return None
    lock = ROOT / "tests" / "proxy" / "package-lock.json"
    import hashlib

    key = hashlib.sha256(lock.read_bytes()).hexdigest()[:16]
    cache = Path(os.environ.get("GARNET_CACHE", Path.home() / ".cache" / "garnet"))
    found = cache / f"proxy-{key}"
    return found if (found / "node_modules" / "@discordjs" / "proxy").is_dir() else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _first_line(stream: IO[bytes] | None, what: str, deadline: float = 20.0) -> dict[str, Any]:
    """The JSON line a helper prints once it listens."""
    assert stream is not None
    start = time.monotonic()
    while time.monotonic() - start < deadline:
        line = stream.readline()
        if line.strip().startswith(b"{"):
            found: dict[str, Any] = json.loads(line)
            return found
        if not line:
            break
    raise SystemExit(f"{what} did not start")


def _stop(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    """Stop a helper and read the counts it prints at exit."""
    proc.terminate()
    out, _ = proc.communicate(timeout=20)
    lines = [line for line in out.decode().splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


@dataclass
class Proxied:
    """The proxy's address for ``DISCORD_API_BASE``, and what the meter and the proxy
    counted (filled in when the context ends)."""

    base: str
    meter: dict[str, Any] = field(default_factory=dict)
    proxy: dict[str, Any] = field(default_factory=dict)


@contextlib.contextmanager
def through_proxy(global_limit: int = 50) -> Iterator[Proxied]:
    """The meter and the proxy in front of it, for as long as the context lasts, both
    keeping ``global_limit`` requests a second."""
    folder = proxy_dir()
    if folder is None:
        raise SystemExit("the REST proxy is not installed: run `bash .ci/proxy` (needs npm)")
    meter_port, proxy_port = _free_port(), _free_port()
    meter = subprocess.Popen([sys.executable, "-m", "tests.fake.discord_meter", str(meter_port),
                              str(global_limit)], cwd=ROOT, stdout=subprocess.PIPE)
    proxy = None
    try:
        _first_line(meter.stdout, "the meter")
        proxy = subprocess.Popen(["node", str(folder / "proxy.mjs"), str(proxy_port),
                                  f"http://127.0.0.1:{meter_port}", str(global_limit)],
                                 cwd=folder,
                                 stdout=subprocess.PIPE)
        _first_line(proxy.stdout, "the proxy")
        found = Proxied(f"http://127.0.0.1:{proxy_port}/api")
        yield found
        found.proxy = _stop(proxy)
        found.meter = _stop(meter)
    finally:
        for proc in (proxy, meter):
            if proc is not None and proc.poll() is None:
                proc.kill()
