"""The Death Match time control: 60 s a turn, then 36 banks of 5 s, whole banks."""

import pytest

from bot.core.timecontrol import TimeControl, clock_text
from bot.texts import match as texts
from engine.game import OptionError

DM = TimeControl()


def test_no_bank_is_spent_within_the_turn_time() -> None:
    assert DM.banks_spent(0) == 0
    assert DM.banks_spent(59.99) == 0
    assert DM.banks_spent(60.0) == 0


def test_a_started_bank_is_spent_entirely() -> None:
    assert DM.banks_spent(60.001) == 1
    assert DM.banks_spent(62) == 1
    assert DM.banks_spent(65) == 1
    assert DM.banks_spent(65.01) == 2
    assert DM.banks_spent(180 + 60) == 36


def test_flag_falls_when_the_reserve_is_used_up() -> None:
    assert DM.flag_at(36) == 240
    assert DM.flag_at(0) == 60
    assert DM.flag_at(3, extra=30) == 105


def test_reminders_of_a_full_turn_follow_the_dm_format() -> None:
    reminders = DM.reminders(36)
    got = [(r.at, r.kind, r.banks_left) for r in reminders]
    assert got[:4] == [(30, "turn", 36), (45, "turn", 36), (55, "turn", 36),
                       (60, "reserve", 36)]
    # Every 30 s of reserve used, with the banks left, until the reserve is gone.
    assert got[4:] == [(90, "reserve-used", 30), (120, "reserve-used", 24),
                       (150, "reserve-used", 18), (180, "reserve-used", 12),
                       (210, "reserve-used", 6)]


def test_no_reserve_reminders_without_banks() -> None:
    assert [r.kind for r in DM.reminders(0)] == ["turn", "turn", "turn"]


def test_extension_moves_the_turn_reminders() -> None:
    ats = [r.at for r in DM.reminders(1, extra=20) if r.kind != "reserve-used"]
    assert ats == [50, 65, 75, 80]


def test_build_checks_its_numbers() -> None:
    tc = TimeControl.build(turn=30, banks=4, bank=10, reminders="10, 5")
    assert (tc.turn, tc.banks, tc.bank, tc.turn_reminders) == (30, 4, 10, (10, 5))
    assert TimeControl.build(reminders="off").reminders(3) == []
    with pytest.raises(OptionError, match="turn time"):
        TimeControl.build(turn=2)
    with pytest.raises(OptionError, match="between 0 and the turn time"):
        TimeControl.build(turn=30, reminders="45")
    with pytest.raises(OptionError, match="seconds left"):
        TimeControl.build(reminders="soon")


def test_json_round_trip() -> None:
    tc = TimeControl.build(turn=45, banks=10, bank=3, reminders="20,10")
    assert TimeControl.from_json(tc.to_json()) == tc
    assert TimeControl.from_json(TimeControl.off().to_json()) == TimeControl.off()


def test_clock_text() -> None:
    assert clock_text(180) == "3:00"
    assert clock_text(4.2) == "0:05"
    assert clock_text(-3) == "0:00"
    assert (clock_text(3599), clock_text(3599.5)) == ("59:59", "1:00:00")
    assert clock_text(86420) == "24:00:20"  # an extended turn: hours, not 1440:20


def test_reserve_reminders_with_long_banks_count_the_bank_under_way() -> None:
    # Three banks of 60 s: 30 s into the reserve, one bank is under way with 30 s left
    # of it and two whole banks after it; 2:30 in, 30 s of the last bank are left.
    tc = TimeControl.build(turn=60, banks=3, bank=60)
    used = [r for r in tc.reminders(3) if r.kind == "reserve-used"]
    assert [(r.seconds, r.banks_left, r.left) for r in used] == [
        (30, 2, 150), (60, 2, 120), (90, 1, 90), (120, 1, 60), (150, 0, 30)]
    said = [texts.reminder("bob", r, tc) for r in used]
    assert said[0] == ("⏰ <@bob>: 0:30 of reserve used, 2:30 left: 0:30 of the bank in "
                       "use, then 2 banks.")
    assert said[1] == "⏰ <@bob>: 1:00 of reserve used, 2 banks (2:00) left."
    assert said[-1] == "⏰ <@bob>: 2:30 of reserve used, 0:30 left: the rest of the last bank."
    # The DM format's 5 s banks read as before: whole banks only.
    last = [r for r in DM.reminders(36) if r.kind == "reserve-used"][-1]
    assert texts.reminder("bob", last, DM) == ("⏰ <@bob>: 2:30 of reserve used, 6 banks "
                                               "(0:30) left.")


def test_real_time_is_immune_to_wall_clock_jumps() -> None:
    """RealClock: epoch seconds from the wall clock read once, then monotonic time; a
    wall clock set back an hour or forward a day changes no elapsed time."""
    from bot.core.clock import RealClock

    wall, mono = [1_700_000_000.0], [500.0]
    clock = RealClock(wall=lambda: wall[0], monotonic=lambda: mono[0])
    start = clock.now()
    assert start == 1_700_000_000.0
    mono[0] += 10
    wall[0] -= 3600  # the wall clock is set back an hour
    assert clock.now() - start == 10.0
    mono[0] += 5
    wall[0] += 86_400  # and forward a day
    assert clock.now() - start == 15.0
