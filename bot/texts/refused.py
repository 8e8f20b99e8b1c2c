"""Why a request about a match is refused: every such sentence, by what it says."""

from __future__ import annotations

from bot.core.messages import mention


def two_different_players() -> str:
    return "A match is between two different players."


def first_or_chooser_a_player() -> str:
    return "Either the First Player or the chooser is one of the players."


def name_who_you_challenge() -> str:
    return "Name who you challenge, e.g. `/challenge opponent:@name`."


def players_all_different() -> str:
    return ("Every player of a match must be a different person "
            "(and you cannot challenge yourself).")


def first_is() -> str:
    return "`first` is `me`, `them` or `random`."


def challenge_not_open() -> str:
    return "That challenge is no longer open."


def only_the_challenged_answer() -> str:
    return "Only the challenged players can answer this challenge."


def only_the_challenger_withdraws() -> str:
    return "Only the challenger can withdraw a challenge."


def dm_of_two() -> str:
    return "A Death Match is between exactly two players."


def dm_already_set_up(label: str, number: int, ids: list[str]) -> str:
    """A repeated ``/dm``: the same game and players, in the same channel."""
    return (f"{label} between {mention(ids[0])} and {mention(ids[1])} is already set up "
            f"in this channel and waits for its First Player; nothing new was set up. "
            f"`/void match:{number}` cancels it, to set it up again.")


def dm_players_different() -> str:
    return "The two players of a Death Match must be different people."


def chooser_is() -> str:
    return "The chooser is one of the two players, `host` or `lots`."


def reward_from_zero() -> str:
    return "The reward is a number of garnets from 0 up."


def first_already_chosen() -> str:
    return "The First Player of that match is already chosen."


def first_is_a_player() -> str:
    return "The First Player must be one of the two players."


def winner_is_a_player() -> str:
    return "The winner must be a player of that match."


def winner_or_draw() -> str:
    return "Name the `winner`, or set `draw:true` — one of the two."


def move_arrived_early() -> str:
    return ("Your message arrived before the last move was in; it is your turn now: send "
            "your move again.")


def paused_wait() -> str:
    return "The match is paused; wait for the host to resume it."


def move_not_saved() -> str:
    return "That move could not be saved; please send it again."


def extend_bounds() -> str:
    return "Extend by 1 s to 24 h."


def no_clock() -> str:
    return "That match has no clock."


def no_threads_here() -> str:
    return "Threads cannot be made here."


# ---- the refusal classes of bot/services/matches/refusals.py ---------------------------


def match_is(number: int, status: str) -> str:
    return f"Match #{number} is {status}."


def not_being_played(number: int) -> str:
    return f"Match #{number} is not being played now."


def finished_use_correct(label: str, number: int) -> str:
    return (f"{label} has ended, so it can no longer be voided or decided. A host changes "
            f"the result of a finished match with `/correct match:{number}` (a winner, or "
            "`draw:true`, and a reason).")


def already_void(label: str) -> str:
    return f"{label} is void already: it has no result to decide."


def match_over() -> str:
    return "That match is over."


def over_before_start(reason: str) -> str:
    """A match set up with options (a deck) under which the game ends before its first
    move."""
    return (f"That game would be over before its first move ({reason}); choose other "
            f"options or another deck.")


def not_a_player() -> str:
    return "You are not playing in that match."


def nobody() -> str:
    """Whose turn it is when it is nobody's (the game is over)."""
    return "nobody"


def not_your_turn(name: str) -> str:
    return f"It is {name}'s turn, not yours."


def ambiguous(running: bool) -> str:
    if running:
        return "Several matches are running here; add `match:` with its number."
    return "Several matches could be meant here; add `match:` with its number."


def needs_reason() -> str:
    return "Give a reason: it is logged with the match."


def at_discord_limit() -> str:
    return ("garnet is at Discord's limit right now; try again in a few minutes. "
            "Matches already running go on.")
