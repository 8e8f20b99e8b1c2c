"""Sigma Escape deck files for the tests: hands that cannot be played (a hollow deck),
written where a test can add or name them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOTHING_N = {"name": "Nothing", "colour": "white", "cells": ["#"], "arrows": ["0,0,N"],
             "at": [0, 0]}
SPECIAL = {"name": "Special", "colour": "black", "cells": ["#"], "arrows": ["0,0,N"],
           "at": [-1, 0]}
DOT = {"name": "Dot", "cells": ["#"], "arrows": ["0,0,S"]}


def hollow_deck(folder: Path, name: str, white: list[Any], black: list[Any]) -> Path:
    """Nothing's one side points into the black Special card: no white card fits."""
    data = {"name": name, "source": "test", "presets": [NOTHING_N, SPECIAL],
            "white": white, "black": black}
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
