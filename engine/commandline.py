"""What the engine's subcommands share: reading a game's options, a position or a
move list from the arguments, and printing a result (``engine.cli`` and
``engine.ai.commands`` both use it)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.game import EngineError, Game


def options_of(game: Game[Any, Any], args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if getattr(args, "tie", None):
        options["tie"] = args.tie
    if getattr(args, "deck", None):
        options["deck"] = game.option_from_file("deck", args.deck)
    for item in getattr(args, "option", None) or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise EngineError(f"option '{item}' is not of the form NAME=VALUE")
        options[name.strip()] = value.strip()
    return options


def split_moves(text: str) -> list[str]:
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def state_of(game: Game[Any, Any], args: argparse.Namespace) -> Any:
    options = options_of(game, args)
    if getattr(args, "position", None) is not None:
        return game.parse_position(args.position, options)
    seats = getattr(args, "players", None) or game.seat_counts[0]
    return game.replay(split_moves(args.moves or ""), seats, options)


def emit(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(data, sort_keys=False))
    else:
        for key, value in data.items():
            if isinstance(value, list):
                value = " ".join(str(v) for v in value) or "-"
            print(f"{key}: {value}")
