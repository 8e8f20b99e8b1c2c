"""The words on the board images, in the language spoken: the engine draws English
templates (``engine.labels.TEMPLATES``) and the bot passes each one's translation as a
value (``labels``) to the drawing, which runs in a worker process."""

from __future__ import annotations

from bot.texts.language import N_, _

# Every template the engine draws, marked for the catalogs (the test keeps this list
# and ``engine.labels.TEMPLATES`` the same).
TEMPLATES = (
    N_("Black"), N_("Red"), N_("First Player"), N_("Second Player"),
    N_("{colour} · {name}"), N_("{n} left"), N_("score {n}"), N_("to play"), N_("wins"),
    N_("before the first move"), N_("after move {n}"), N_("{where} · {colour} to play"),
    N_("{line} · last: {colour} {cell}"),
    N_("Draw {black}–{red}: the Corridor is closed"),
    N_("{winner} wins {high}–{low}: the Corridor is closed"),
    N_("Tie {black}–{red}: the First Player ({loser}) loses, {winner} wins"),
    N_("Tie {black}–{red}: {loser} placed the last piece and loses, {winner} wins"),
    N_("Green: the final Corridor. Gold rim: a piece touching it, which scores."),
    N_("Hints: green = the Corridor, × = would leave no Corridor."),
    # Quoridor's
    N_("White"), N_("Blue"), N_("{name} ({colour})"), N_(" ({colour})"), N_("{who} to move"),
    N_("{headline}  ·  {passed} had no move and passed"), N_("{who} wins: {reason}"),
    N_("Draw: {reason}"), N_("no one reached their goal in {n} plies"),
    N_("{colour} reached {goal}"), N_("the others left the game"), N_("row {row}"),
    N_("column {column}"), N_("{where} · last: {move}"), N_("to {goal}"),
    N_("left the game"), N_("{goal} · {n} steps"),
    # Quoridor's line under a board (its status)
    N_("{colour} had no move and passed"), N_("{colour} {n}"), N_("walls left: {left}"),
    N_("{colour} left the game"), N_(", "),
    # a board's description (its alt text: ``Game.describe``), every game's
    N_("{colour} ({name})"), N_("Game over"), N_("{title}, {where}."), N_("{standing}."),
    N_("Last move: {move}."), N_("{colour} pieces ({n}): {cells}."), N_("none"),
    N_("A * marks a permanent piece."), N_("pawn on {square}"), N_("out of the game"),
    N_("{colour}: {pawn}, {n} walls left, walls placed: {walls}."),
    # Pathwayz's (its key, status line and line under a board)
    N_('permanent'),
    N_('last move'),
    N_('flipped'),
    N_('connect column a to column l'),
    N_('{colour} to move · {where}'),
    N_('Draw: {reason} · {n} moves'),
    N_('{line} · last {colour} {cell}'),
    N_('{line}, {n} flipped'),
    N_('the board is full with no chain'),
    N_('{colour} connected a to l'),
    N_("{colour} connected a to l (completed by {mover}'s move)"),
    N_('{colour} connected a to l (both chains completed: the mover wins)'),
    N_('{move} flipped 1 piece'),
    N_('{move} flipped {n} pieces'),
    # Sigma Escape's (its board, deck sheet, line under a board and description)
    N_("no usable side"),
    N_("{colour} (to escape)"),
    N_("{colour} (to surround)"),
    N_("{line} · 1 card left"),
    N_("{line} · {n} cards left"),
    N_("{deck} · rules: {rules}"),
    N_("{note} · reconstructed cards"),
    N_("{deck} · a reconstruction, not the real cards"),
    N_("White's main group is surrounded, no blank space left"),
    N_("Green outline: White's main group · green dots: its blank spaces · orange: the last card"),
    N_("{colour} to play"),
    N_("last: {colour} {move}"),
    N_("{colour} passed"),
    N_("1 blank space"),
    N_("{n} blank spaces"),
    N_("{spaces} (green dots)"),
    N_("gold: {colour}'s {n} usable sides"),
    N_("play CARD SIDE.ARROW"),
    N_("hatched: white cut off"),
    N_("1 blank space left"),
    N_("{n} blank spaces left"),
    N_("White's main group is surrounded: no blank space"),
    N_("all cards are played with {spaces}"),
    N_("both players passed with {spaces}"),
    N_("Game over · {who} wins: {reason}"),
    N_("{colour} passed (move {n}: no legal placement)"),
    N_("cards left: {left}"),
    N_("White's main group: {cells} cells, {n} blank spaces (row-column, from "
        "the top-left of the cards on the table): {spaces}."),
    N_("Cards left: {hands}."),
    N_("Preset cards"),
    N_("at ({row}, {column})"),
    N_("White's hand · {n} cards"),
    N_("Black's hand · {n} cards"),
    N_("A RECONSTRUCTION: the real cards' pictures are lost"),
    N_("Source: {source}"),
    N_("Rules variants (not the rules page's): {rules}"),
    # Cairo Corridor's result, in a board's description
    N_("the Corridor is closed: {scores}"),
    N_("{reason}; {tie}"),
    N_("a tie, and on a tie the First Player loses"),
    N_("a tie, and on a tie whoever placed the last piece loses"),
    N_("a tie: the game is drawn"),
)


def labels() -> dict[str, str]:
    """What the language spoken says for each template it translates (English: none; the
    tests' pseudo-locale, English underneath, translates them all)."""
    return {t: said for t in TEMPLATES if (said := _(t)) != t}
