"""Keyboard, mouse and touch through SDL (pygame-ce with the dummy video driver)."""

from __future__ import annotations

import threading

import pygame
import pytest

from input.hub import InputHub
from input.keyboard import PygameEvents
from pyramid.actions import Action
from fake_clock import FakeClock

SCREEN = (480, 320)


@pytest.fixture
def display():
    pygame.display.init()
    pygame.display.set_mode(SCREEN)
    pygame.event.clear()
    yield
    pygame.display.quit()


@pytest.fixture
def others() -> list:
    return []


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(10.0)


@pytest.fixture
def hub(display, others, clock) -> InputHub:
    hub = InputHub(clock)
    PygameEvents(hub, lambda: SCREEN, others.append)
    return hub


def post(event_type: int, **attributes) -> None:
    pygame.event.post(pygame.event.Event(event_type, **attributes))


def key_down(key: int, text: str = "") -> None:
    post(pygame.KEYDOWN, key=key, unicode=text, mod=0, scancode=0)


def key_up(key: int) -> None:
    post(pygame.KEYUP, key=key, unicode="", mod=0, scancode=0)


@pytest.mark.parametrize(
    ("key", "text", "action"),
    [
        (pygame.K_UP, "", "up"),
        (pygame.K_DOWN, "", "down"),
        (pygame.K_LEFT, "", "left"),
        (pygame.K_RIGHT, "", "right"),
        (pygame.K_SPACE, " ", "ok"),
        (pygame.K_RETURN, "\r", "ok"),
        (pygame.K_KP_ENTER, "\r", "ok"),
        (pygame.K_BACKSPACE, "\b", "erase"),  # back, but where a number or a name is typed
        (pygame.K_ESCAPE, "\x1b", "star"),
        (pygame.K_ASTERISK, "*", "star"),
        (pygame.K_KP_MULTIPLY, "*", "star"),
        (pygame.K_8, "*", "star"),  # Shift+8 on a US layout
        (pygame.K_F1, "", "help"),
    ],
)
def test_keyboard_table_of_spec_section_2(hub, key, text, action):
    key_down(key, text)
    key_up(key)
    assert hub.wait(0) == [Action(action)]
    assert str(hub.recent_presses[-1]) == f"{action} from 'keyboard'"


def test_unmapped_keys_produce_nothing_but_what_they_type(hub):
    key_down(pygame.K_q, "q")
    key_up(pygame.K_q)
    key_down(pygame.K_8, "8")
    key_down(pygame.K_F5, "")
    key_down(pygame.K_TAB, "\t")
    assert hub.wait(0) == [Action.typed("q"), Action.typed("8")]


def test_sdl_key_repeat_is_ignored_and_the_hub_repeats(hub, clock):
    key_down(pygame.K_LEFT)
    key_down(pygame.K_LEFT)  # what SDL/pygame auto-repeat would send
    key_down(pygame.K_LEFT)
    assert hub.wait(0) == [Action("left")]
    clock.now += 0.35
    assert hub.wait(0) == [Action("left")]
    key_up(pygame.K_LEFT)
    clock.now += 1
    assert hub.wait(0) == []
    assert pygame.key.get_repeat() == (0, 0)


def test_losing_focus_releases_held_keys(hub, clock):
    key_down(pygame.K_DOWN)
    hub.wait(0)
    post(pygame.WINDOWFOCUSLOST)
    hub.wait(0)
    clock.now += 2
    assert hub.wait(0) == []


def test_left_click_is_a_tap_at_the_pointer(hub):
    post(pygame.MOUSEBUTTONDOWN, pos=(123, 45), button=1, touch=False)
    post(pygame.MOUSEBUTTONDOWN, pos=(1, 1), button=3, touch=False)
    post(pygame.MOUSEBUTTONDOWN, pos=(2, 2), button=1, touch=True)  # SDL's copy of a touch
    assert hub.wait(0) == [Action.tap(123, 45)]
    assert str(hub.recent_presses[-1]) == "tap:123,45 from 'mouse'"


def test_touch_is_scaled_from_normalized_to_screen_pixels(hub):
    post(pygame.FINGERDOWN, x=0.5, y=0.25, dx=0.0, dy=0.0, touch_id=1, finger_id=0, pressure=1.0)
    post(pygame.FINGERDOWN, x=1.0, y=1.0, dx=0.0, dy=0.0, touch_id=1, finger_id=1, pressure=1.0)
    assert hub.wait(0) == [Action.tap(240, 80), Action.tap(479, 319)]


def test_window_events_go_to_the_other_event_handler(hub, others):
    post(pygame.WINDOWEXPOSED)
    assert hub.wait(0) == []
    assert pygame.WINDOWEXPOSED in [event.type for event in others]


def test_closing_the_window_stops_the_hub(hub, others):
    post(pygame.QUIT)
    assert hub.wait(10) is None
    assert hub.wait(10) is None
    assert pygame.QUIT not in [event.type for event in others]


def test_worker_thread_wakes_the_sdl_wait(display):
    hub = InputHub()
    PygameEvents(hub, lambda: SCREEN)
    pygame.event.clear()
    hub.wait(0)  # takes the "keyboard connected" report
    worker = threading.Timer(0.05, hub.press, ("back", "Remote"))
    worker.start()
    actions = hub.wait(timeout=10)
    worker.join()
    assert actions == [Action("back")]


def test_sdl_wait_times_out(display):
    hub = InputHub()
    PygameEvents(hub, lambda: SCREEN)
    pygame.event.clear()
    assert hub.wait(timeout=0.02) == []
