"""Hold-to-repeat, long presses and debounce: the timing shared by every input source."""

from __future__ import annotations

import pytest

from input.debounce import Debouncer
from input.repeat import Repeater
from pyramid.actions import Action
from pyramid.errors import InvalidActionError
from fake_clock import FakeClock


def names(emitted) -> list[str]:
    return [str(e.action) for e in emitted]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def repeater(clock: FakeClock) -> Repeater:
    return Repeater(clock)


def test_press_emits_once_and_nothing_is_due_before_the_delay(repeater, clock):
    assert names(repeater.press("left", "pad")) == ["left"]
    assert repeater.next_deadline() == pytest.approx(100.35)
    clock.advance(0.34)
    assert repeater.due() == []


def test_held_arrow_repeats_after_350ms_then_ten_per_second(repeater, clock):
    repeater.press("down", "pad")
    repeats = []
    for _ in range(135):  # 1.35 s in 10 ms steps
        clock.advance(0.01)
        repeats += repeater.due()
    assert names(repeats) == ["down"] * 11  # at 0.35, 0.45, ... 1.35
    assert all(e.repeated and e.device == "pad" for e in repeats)


def test_release_stops_the_repeat(repeater, clock):
    repeater.press("up", "kbd")
    clock.advance(0.5)
    assert names(repeater.due()) == ["up"]
    assert repeater.release("up", "kbd") == []
    clock.advance(5)
    assert repeater.due() == []
    assert repeater.next_deadline() is None


def test_a_late_main_loop_gets_one_repeat_not_a_burst(repeater, clock):
    repeater.press("right", "kbd")
    clock.advance(3.0)
    assert names(repeater.due()) == ["right"]
    assert repeater.next_deadline() == pytest.approx(clock.now + 0.1)


@pytest.mark.parametrize("button", ["ok", "back", "star", "help"])
def test_only_arrows_repeat(repeater, clock, button):
    assert names(repeater.press(button, "kbd")) == [button]
    clock.advance(2)
    assert repeater.due() == []
    assert repeater.next_deadline() is None


def test_release_from_one_device_does_not_end_another_devices_hold(repeater, clock):
    repeater.press("left", "remote")
    repeater.press("left", "keyboard")
    repeater.release("left", "keyboard")
    clock.advance(0.35)
    emitted = repeater.due()
    assert [(str(e.action), e.device) for e in emitted] == [("left", "remote")]


def test_duplicate_press_without_release_is_not_a_new_press(repeater):
    assert names(repeater.press("ok", "kbd")) == ["ok"]
    assert repeater.press("ok", "kbd") == []


def test_forgotten_device_stops_repeating_silently(repeater, clock):
    repeater.press("up", "gamepad")
    repeater.forget_device("gamepad")
    clock.advance(1)
    assert repeater.due() == []
    assert repeater.release("up", "gamepad") == []


def test_short_press_of_a_long_press_button_gives_the_button_on_release(repeater, clock):
    assert repeater.press("star", "GPIO 27", long_press="help") == []
    clock.advance(0.3)
    assert repeater.due() == []
    assert names(repeater.release("star", "GPIO 27")) == ["star"]


def test_long_press_gives_the_long_action_once_and_release_gives_nothing(repeater, clock):
    repeater.press("star", "GPIO 27", long_press="help")
    assert repeater.next_deadline() == pytest.approx(101.0)
    clock.advance(1.0)
    assert names(repeater.due()) == ["help"]
    clock.advance(3.0)
    assert repeater.due() == []
    assert repeater.release("star", "GPIO 27") == []


def test_unknown_button_is_a_typed_error_quoting_it(repeater):
    with pytest.raises(InvalidActionError, match="'jump'"):
        repeater.press("jump", "kbd")


def test_repeated_actions_are_plain_actions(repeater, clock):
    repeater.press("left", "kbd")
    clock.advance(0.35)
    assert repeater.due()[0].action == Action("left")


# -- debounce -------------------------------------------------------------

KEY = ("ok", "GPIO 22")


def test_first_edge_is_taken_at_once_and_chatter_is_ignored():
    debouncer = Debouncer()
    assert debouncer.edge(KEY, True, 0.000, 0.02) == [True]
    assert debouncer.edge(KEY, False, 0.002, 0.02) == []
    assert debouncer.edge(KEY, True, 0.004, 0.02) == []
    assert debouncer.next_deadline() is None  # settled where it was accepted
    assert debouncer.settle(1.0) == []


def test_release_inside_the_quiet_period_is_applied_when_it_ends():
    debouncer = Debouncer()
    debouncer.edge(KEY, True, 0.000, 0.02)
    assert debouncer.edge(KEY, False, 0.010, 0.02) == []
    assert debouncer.next_deadline() == pytest.approx(0.02)
    assert debouncer.settle(0.019) == []
    assert debouncer.settle(0.020) == [(KEY, False)]
    assert debouncer.next_deadline() is None


def test_a_later_edge_first_settles_the_pending_level():
    debouncer = Debouncer()
    debouncer.edge(KEY, True, 0.000, 0.02)
    debouncer.edge(KEY, False, 0.005, 0.02)
    # The release became certain at 0.020; the new press at 0.025 is inside the next quiet period.
    assert debouncer.edge(KEY, True, 0.025, 0.02) == [False]
    assert debouncer.settle(0.040) == [(KEY, True)]


def test_zero_bounce_time_passes_every_change_but_drops_repeated_levels():
    debouncer = Debouncer()
    assert debouncer.edge(KEY, True, 5.0, 0.0) == [True]
    assert debouncer.edge(KEY, True, 5.0, 0.0) == []
    assert debouncer.edge(KEY, False, 5.0, 0.0) == [False]


def test_forget_device_drops_pending_levels():
    debouncer = Debouncer()
    debouncer.edge(KEY, True, 0.0, 0.02)
    debouncer.edge(KEY, False, 0.01, 0.02)
    debouncer.forget_device("GPIO 22")
    assert debouncer.next_deadline() is None
    assert debouncer.settle(1.0) == []
