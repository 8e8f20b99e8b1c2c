"""Files a test compares its output with, rewritten on purpose with UPDATE_SNAPSHOTS=1."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest


def compare(expected_file: Path, actual: str, what: str, now: str) -> None:
    """``actual`` equals the file, or (UPDATE_SNAPSHOTS=1) is written to it; a change
    fails with a readable diff. ``what`` names the output, ``now`` its fresh side."""
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        expected_file.parent.mkdir(parents=True, exist_ok=True)
        expected_file.write_text(actual, encoding="utf-8")
        return
    assert expected_file.exists(), f"{expected_file} is missing; run with UPDATE_SNAPSHOTS=1"
    expected = expected_file.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            fromfile=f"{expected_file.name} (expected)", tofile=now, n=2))
        pytest.fail(f"{what} changed (UPDATE_SNAPSHOTS=1 rewrites {expected_file.name}):"
                    f"\n{diff}", pytrace=False)
