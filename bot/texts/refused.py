"""Why a request about a match is refused: every such sentence, by what it says."""

from __future__ import annotations

from bot.core.messages import mention
from bot.texts.language import _, text


@text
def two_different_players() -> str:
    return _("A match is between two different players.")


@text
def first_or_chooser_a_player() -> str:
    return _("Either the First Player or the chooser is one of the players.")


@text
def name_who_you_challenge() -> str:
    return _("Name who you challenge, e.g. `/challenge opponent:@name`.")


@text
def players_all_different() -> str:
    return (_("Every player of a match must be a different person (and you cannot challenge "
              "yourself)."))


@text
def first_is() -> str:
    return _("`first` is `me`, `them` or `random`.")


@text
def challenge_not_open() -> str:
    return _("That challenge is no longer open.")


@text
def only_the_challenged_answer() -> str:
    return _("Only the challenged players can answer this challenge.")


@text
def only_the_challenger_withdraws() -> str:
    return _("Only the challenger can withdraw a challenge.")


@text
def dm_of_two() -> str:
    return _("A Death Match is between exactly two players.")


@text
def dm_already_set_up(label: str, number: int, ids: list[str]) -> str:
    """A repeated ``/dm``: the same game and players, in the same channel."""
    return (_("{label} between {first} and {second} is already set up in this channel and waits "
              "for its First Player; nothing new was set up. `/void match:{number}` cancels "
              "it, to set it up again.").format(
                label=label, first=mention(ids[0]), second=mention(ids[1]), number=number))


@text
def dm_players_different() -> str:
    return _("The two players of a Death Match must be different people.")


@text
def chooser_is() -> str:
    return _("The chooser is one of the two players, `host` or `lots`.")


@text
def reward_from_zero() -> str:
    return _("The reward is a number of garnets from 0 up.")


@text
def first_already_chosen() -> str:
    return _("The First Player of that match is already chosen.")


@text
def first_is_a_player() -> str:
    return _("The First Player must be one of the two players.")


@text
def winner_is_a_player() -> str:
    return _("The winner must be a player of that match.")


@text
def winner_or_draw() -> str:
    return _("Name the `winner`, or set `draw:true` — one of the two.")


@text
def move_arrived_early() -> str:
    return (_("Your message arrived before the last move was in; it is your turn now: send "
              "your move again."))


@text
def paused_wait() -> str:
    return _("The match is paused; wait for the host to resume it.")


@text
def move_not_saved() -> str:
    return _("That move could not be saved; please send it again.")


@text
def extend_bounds() -> str:
    return _("Extend by 1 s to 24 h.")


@text
def no_clock() -> str:
    return _("That match has no clock.")


@text
def no_threads_here() -> str:
    return _("Threads cannot be made here.")


# ---- the refusal classes of bot/services/matches/refusals.py ---------------------------


@text
def match_is(number: int, status: str) -> str:
    return _("Match #{number} is {status}.").format(number=number, status=status)


@text
def not_being_played(number: int) -> str:
    return _("Match #{number} is not being played now.").format(number=number)


@text
def finished_use_correct(label: str, number: int) -> str:
    return (_("{label} has ended, so it can no longer be voided or decided. A host changes "
              "the result of a finished match with `/correct match:{number}` (a winner, or "
              "`draw:true`, and a reason).").format(label=label, number=number))


@text
def already_void(label: str) -> str:
    return _("{label} is void already: it has no result to decide.").format(label=label)


@text
def match_over() -> str:
    return _("That match is over.")


@text
def over_before_start(reason: str) -> str:
    """A match set up with options (a deck) under which the game ends before its first
    move."""
    return (_("That game would be over before its first move ({reason}); choose other "
              "options or another deck.").format(reason=reason))


@text
def not_a_player() -> str:
    return _("You are not playing in that match.")


@text
def nobody() -> str:
    """Whose turn it is when it is nobody's (the game is over)."""
    return _("nobody")


@text
def not_your_turn(name: str) -> str:
    return _("It is {name}'s turn, not yours.").format(name=name)


@text
def ambiguous(running: bool) -> str:
    if running:
        return _("Several matches are running here; add `match:` with its number.")
    return _("Several matches could be meant here; add `match:` with its number.")


@text
def needs_reason() -> str:
    return _("Give a reason: it is logged with the match.")


@text
def at_discord_limit() -> str:
    return (_("garnet is at Discord's limit right now; try again in a few minutes. Matches "
              "already running go on."))


@text
def starting_many() -> str:
    # TRANSLATORS: said when many matches were started within the last second or two;
    # a moment later a new one is let in.
    return _("Many matches are starting at once right now; try again in a few seconds. "
             "Matches already running go on.")
