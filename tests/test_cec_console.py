"""The TV's HDMI-CEC news at the console (issue 49): its standby pauses a game, its remote's keys read from
messages are the console's keys, and a key pressed on another device brings the TV back to the console."""

from __future__ import annotations

from pathlib import Path

from input.hub import InputHub
from input.keymap import KeyMap
from pyramid.actions import Action
from pyramid.console.game_flow import GAME
from pyramid.console.menus import open_console
from pyramid.console.session import Session
from pyramid.saved.store import Store
from input.hub import TV_REMOTE
from pyramid.app.hdmi_cec import TvBus, hub_news
from pyramid.system.cec.messages import BROADCAST, CecMessage, Opcode
from pyramid.system.cec.playback import ActiveSource, RemoteKey, TvStandby
from pyramid.system.cec.settings import CecSettings

from fake_clock import FakeClock
from test_cec_service import Bus
from test_session_recovery import game_in_progress


def test_the_tvs_standby_pauses_a_game_and_loses_nothing(tmp_path: Path) -> None:
    session = game_in_progress(tmp_path)
    saved = session.store.load_progress(GAME)
    session.post_event(TvStandby())
    assert [screen.name for screen in session.stack] == ["menu", "game", "assists"]  # the game's pause panel
    game = session.stack[1]
    assert game.run.since is None, "the game's clock stopped"  # type: ignore[attr-defined]
    assert session.store.load_progress(GAME) == saved
    session.post_event(TvStandby())  # again, at the panel: nothing more
    assert [screen.name for screen in session.stack] == ["menu", "game", "assists"]


def test_the_tvs_news_in_a_menu_changes_nothing(tmp_path: Path) -> None:
    session = Session(store=Store.open(tmp_path / "p.db"))
    open_console(session)
    before = session.view()
    session.post_event(TvStandby())
    session.post_event(ActiveSource(False))
    assert [screen.name for screen in session.stack] == ["menu"] and session.view() == before


def test_a_remote_key_read_from_messages_is_a_press_on_the_hub() -> None:
    hub = InputHub(FakeClock(0.0))
    news = hub_news(hub, KeyMap.default())
    news(RemoteKey("KEY_OK", True))
    news(RemoteKey("KEY_OK", False))
    news(RemoteKey("KEY_PLAYCD", True))  # a key the console has no use for
    news(TvStandby())
    assert hub.wait(0) == [Action("ok"), TvStandby()]
    assert hub.recent_presses[-1].device == TV_REMOTE


def test_a_key_on_another_device_brings_the_tv_back_to_the_console() -> None:
    bus = Bus("/dev/cec0")
    bus.service.start()
    try:
        tv = TvBus(bus.service, CecSettings())
        assert bus.next_news() == ActiveSource(True)
        bus.adapters["/dev/cec0"].hear(CecMessage(8, BROADCAST, Opcode.ACTIVE_SOURCE, b"\x20\x00"))
        assert bus.next_news() == ActiveSource(False)
        sent = len(bus.adapters["/dev/cec0"].sent)
        tv.pressed()
        assert bus.next_news() == ActiveSource(True)
        assert bus.adapters["/dev/cec0"].sent[sent].opcode == Opcode.IMAGE_VIEW_ON
        tv.pressed()  # shown already: nothing asked of the thread
        assert bus.service._asked.empty()  # noqa: SLF001 (the queue of the main loop's asks)
    finally:
        bus.service.stop()
