"""GPIO buttons with gpiozero's MockFactory: press, bounce, hold, long press, release."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from input.errors import SourceUnavailableError
from input.gpio import GpioButtons
from input.hub import InputHub
from input.keymap import DEFAULT_GPIO_PINS
from pyramid.actions import Action
from fake_clock import FakeClock


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()
    if Device.pin_factory is not None:
        Device.pin_factory.reset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(0.0)


@pytest.fixture
def hub(clock) -> InputHub:
    return InputHub(clock)


@pytest.fixture
def buttons(hub, factory):
    buttons = GpioButtons(hub, pin_factory=factory)
    yield buttons
    buttons.close()


def pin(factory: MockFactory, action: str):
    return factory.pin(DEFAULT_GPIO_PINS[action])


def test_buttons_use_pull_ups_so_released_pins_read_high(buttons, factory):
    for action in DEFAULT_GPIO_PINS:
        assert pin(factory, action).pull == "up"
        assert pin(factory, action).state == 1


@pytest.mark.parametrize("action", ["up", "down", "left", "right", "ok"])
def test_each_pin_gives_its_action_and_names_the_pin(buttons, factory, hub, action):
    pin(factory, action).drive_low()
    pin(factory, action).drive_high()
    assert hub.wait(0) == [Action(action)]
    assert str(hub.recent_presses[-1]) == f"{action} from 'GPIO {DEFAULT_GPIO_PINS[action]}'"


def test_contact_bounce_is_one_press(buttons, factory, hub, clock):
    ok = pin(factory, "ok")
    for _ in range(4):  # 4 ms of chatter when closing
        ok.drive_low()
        clock.advance(0.0005)
        ok.drive_high()
        clock.advance(0.0005)
    ok.drive_low()
    assert hub.wait(0) == [Action("ok")]
    clock.advance(0.1)
    for _ in range(3):  # and when opening
        ok.drive_high()
        clock.advance(0.0005)
        ok.drive_low()
        clock.advance(0.0005)
    ok.drive_high()
    clock.advance(0.05)
    ok.drive_low()  # a real second press
    assert hub.wait(0) == [Action("ok")]
    assert len(hub.recent_presses) == 2


def test_a_tap_shorter_than_the_bounce_time_still_releases(buttons, factory, hub, clock):
    left = pin(factory, "left")
    left.drive_low()
    clock.advance(0.005)
    left.drive_high()
    assert hub.wait(0) == [Action("left")]
    clock.advance(0.02)
    hub.wait(0)  # the release settles here
    clock.advance(1.0)
    assert hub.wait(0) == []  # no endless repeat


def test_holding_an_arrow_repeats_until_release(buttons, factory, hub, clock):
    down = pin(factory, "down")
    down.drive_low()
    actions = hub.wait(0)
    for _ in range(10):  # 0.5 s in 50 ms steps
        clock.advance(0.05)
        actions += hub.wait(0)
    down.drive_high()
    clock.advance(1)
    actions += hub.wait(0)
    assert actions == [Action("down")] * 3  # press, then repeats at 0.35 and 0.45 s


def test_short_star_is_star_long_star_is_help(buttons, factory, hub, clock):
    star = pin(factory, "star")
    star.drive_low()
    assert hub.wait(0) == []  # could still become a long press
    clock.advance(0.2)
    star.drive_high()
    assert hub.wait(0) == [Action("star")]
    clock.advance(1)
    star.drive_low()
    hub.wait(0)
    clock.advance(1.0)
    assert hub.wait(0) == [Action("help")]
    star.drive_high()
    clock.advance(0.1)
    assert hub.wait(0) == []
    assert [str(r.action) for r in hub.recent_presses] == ["star", "help"]


def test_short_back_is_back_long_back_is_undo(buttons, factory, hub, clock):
    back = pin(factory, "back")
    back.drive_low()
    assert hub.wait(0) == []  # could still become a long press
    clock.advance(0.2)
    back.drive_high()
    assert hub.wait(0) == [Action("back")]
    assert str(hub.recent_presses[-1]) == f"back from 'GPIO {DEFAULT_GPIO_PINS['back']}'"
    clock.advance(1)
    back.drive_low()
    hub.wait(0)
    clock.advance(1.0)
    assert hub.wait(0) == [Action("undo")]
    back.drive_high()
    clock.advance(0.1)
    assert hub.wait(0) == []


def test_a_help_pin_makes_star_immediate(hub, factory, clock):
    buttons = GpioButtons(hub, {"star": 27, "help": 12}, pin_factory=factory)
    factory.pin(27).drive_low()
    assert hub.wait(0) == [Action("star")]
    factory.pin(12).drive_low()
    assert hub.wait(0) == [Action("help")]
    buttons.close()


def test_two_buttons_at_once_are_independent(buttons, factory, hub, clock):
    pin(factory, "up").drive_low()
    pin(factory, "left").drive_low()
    assert hub.wait(0) == [Action("up"), Action("left")]
    pin(factory, "left").drive_high()
    clock.advance(0.35)
    assert hub.wait(0) == [Action("up")]


def test_close_frees_the_pins_and_stops_reporting(hub, factory):
    buttons = GpioButtons(hub, pin_factory=factory)
    buttons.close()
    again = GpioButtons(hub, pin_factory=factory)  # would raise GPIOPinInUse if still held
    again.close()
    pin(factory, "ok").drive_low()
    assert hub.wait(0) == []


def test_a_pin_in_use_is_a_clear_error_and_nothing_stays_open(hub, factory):
    first = GpioButtons(hub, {"ok": 22}, pin_factory=factory)
    with pytest.raises(SourceUnavailableError, match=r"cannot use GPIO 22 for 'ok'"):
        GpioButtons(hub, {"up": 5, "ok": 22}, pin_factory=factory)
    first.close()
    GpioButtons(hub, {"up": 5}, pin_factory=factory).close()  # 5 was released after the failure


def test_without_lgpio_or_a_gpio_chip_the_source_is_unavailable(hub, monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    try:
        import lgpio  # noqa: F401
    except ImportError:
        with pytest.raises(SourceUnavailableError, match="GPIO buttons need lgpio"):
            GpioButtons(hub)
    else:
        pytest.skip("lgpio is installed here")


def test_a_factory_chosen_the_gpiozero_way_is_used(hub, monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    buttons = GpioButtons(hub, {"ok": 22})
    try:
        assert isinstance(Device.pin_factory, MockFactory)
        Device.pin_factory.pin(22).drive_low()
        assert hub.wait(0) == [Action("ok")]
    finally:
        buttons.close()
        Device.pin_factory.reset()
