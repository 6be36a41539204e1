"""The main menu's "Power off" (``--power-off logind``, the appliance's unit): asked once, then logind.

The console runs for real in scripted mode with a stand-in ``busctl`` first on
PATH that records what it was asked (the real one would power this machine
off); the refusal is checked on a session whose power-off fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.errors import PyramidError
from pyramid.saved.store import Store

from console_steps import parse_script


def console(tmp_path: Path, *args: str) -> dict:
    """Run the console headless with the recording busctl; the final state."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    busctl = bin_dir / "busctl"
    busctl.write_text(f"#!/bin/sh\necho \"$@\" >> '{tmp_path / 'busctl.log'}'\n")
    busctl.chmod(0o755)
    environment = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "SDL_VIDEODRIVER": "dummy"}
    state = tmp_path / "state.json"
    subprocess.run([sys.executable, "-m", "pyramid", "--display", "headless", *args, "--dump-state", str(state)],
                   check=True, env=environment, capture_output=True, text=True, timeout=120)
    return json.loads(state.read_text())


def test_the_last_line_asks_then_powers_off_through_logind(tmp_path: Path) -> None:
    state = console(tmp_path, "--power-off", "logind", "--script", "up ok")
    assert state["menu"]["items"] == ["Power off", "Cancel"]
    state = console(tmp_path, "--power-off", "logind", "--script", "up ok ok")
    assert state["screen"] == "notice"
    calls = (tmp_path / "busctl.log").read_text().splitlines()
    assert calls == ["call --system org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager "
                     "PowerOff b false"]


def test_cancel_and_a_console_without_the_option_never_call_it(tmp_path: Path) -> None:
    state = console(tmp_path, "--power-off", "logind", "--script", "up ok down ok")
    assert state["screen"] == "menu"
    state = console(tmp_path, "--script", "up")
    assert "Power off" not in state["menu"]["items"]
    assert not (tmp_path / "busctl.log").exists()


def test_a_refused_power_off_is_told_and_play_goes_on(tmp_path: Path) -> None:
    def refuse() -> None:
        raise PyramidError("systemd-logind did not power off: 'Access denied'")

    session = Session(None, DealChoice(), store=Store.open(tmp_path / "pyramid.db"))
    session.power_off = refuse
    open_console(session)
    for action in parse_script("up ok ok"):
        session.handle(action)
    state = session.state()
    assert state["screen"] == "notice"
    assert session.view().panel is not None and session.view().panel.title == "The console could not power off"
    session.handle(parse_script("ok")[0])
    assert session.state()["screen"] == "menu"


def test_on_a_tvs_hdmi_cec_bus_the_tv_can_go_to_standby_first(tmp_path: Path) -> None:
    """Issue 49: "Power off" offers the TV too, and asks for the TV's standby before the console's power-off."""
    def powered(script: str, folder: str) -> list[str]:
        done: list[str] = []
        session = Session(None, DealChoice(), store=Store.open(tmp_path / f"{folder}.db"))
        session.power_off = lambda: done.append("console")
        session.tv_standby_request = lambda: done.append("tv")
        open_console(session)
        for action in parse_script("up ok"):
            session.handle(action)
        assert session.state()["menu"]["items"] == ["Power off", "Power off the console and the TV", "Cancel"]
        for action in parse_script(script):
            session.handle(action)
        return done

    assert powered("down ok", "both") == ["tv", "console"]
    assert powered("ok", "console") == ["console"], "Power off alone leaves the TV on"
    assert powered("down down ok", "neither") == []
