"""What the console loads before its first frame (issue 48, item 7): the network's protocol, its
libraries, TLS and the computer players load when a table, a server or a duel is first used, not at
start (they cost some 15 ms here, over 100 ms on a Pi Zero 2). ``benchmarks/bench_console.py
--against`` measures the start itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

#: Modules the main menu never needs.
LATER = ("pyramid.net.protocol", "pyramid.net.advert", "pyramid.net.link", "pyramid.net.network",
         "pyramid.engine.duel.ai", "pyramid.engine.solver", "ssl", "asyncio", "aiomqtt", "paho", "zeroconf")

MAIN_MENU = """
import json, sys
from pyramid.app import modes, settings_file  # noqa: F401  (what `pyramid` imports to start)
from pyramid.console.menus import open_console
from pyramid.console.session import Session
from pyramid.saved.store import Store
session = Session(store=Store.open())
open_console(session)
session.view()
print(json.dumps(sorted(sys.modules)))
"""


def test_the_main_menu_is_drawn_without_the_network_tls_or_the_computer_players(tmp_path: Path) -> None:
    environment = {**os.environ, "PYRAMID_DATA_DIR": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", MAIN_MENU], capture_output=True, text=True, check=True,
                            env=environment, timeout=60)
    loaded = json.loads(result.stdout.splitlines()[-1])  # after pygame's greeting
    assert "pyramid.console.session" in loaded and "pyramid.net.views" in loaded, "the check can fail"
    early = [name for name in loaded if name.split(".")[0] in LATER or name.startswith(LATER)]
    assert early == []
