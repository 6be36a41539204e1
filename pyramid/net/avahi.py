"""The avahi backend: publish with ``avahi-publish``, browse with ``avahi-browse --parsable``.

Both are long-running child processes of the network thread's event loop:
``avahi-publish`` keeps the service registered for as long as it lives (a
changed TXT record, e.g. seats free, restarts it); ``avahi-browse -p -r -k``
prints one line per service found, resolved or removed. Each line is split on
``;`` and unescaped here; the TXT record is read into key/value pairs and
checked by :meth:`TableAd.from_txt`; nothing of it is ever passed to a process.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Coroutine
from typing import Any

from pyramid.net.advert import SERVICE_TYPE, TableAd, parse_port
from pyramid.net.context import NetContext, log
from pyramid.net.errors import ProtocolError
from pyramid.net.events import DiscoveryFailed, TableGone, TableSeen

#: The longest line read from avahi-browse (a TXT record is at most a few hundred bytes).
MAX_LINE = 8192


class AvahiBackend:
    name = "avahi"

    def __init__(self, context: NetContext) -> None:
        publish, browse = shutil.which("avahi-publish"), shutil.which("avahi-browse")
        if publish is None or browse is None:
            raise OSError("avahi-daemon runs but avahi-utils (avahi-publish, avahi-browse) is not installed")
        self.context, self._publish_tool, self._browse_tool = context, publish, browse
        self._publisher: asyncio.subprocess.Process | None = None
        self._browser: asyncio.subprocess.Process | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: dict[str, set[tuple[str, str]]] = {}

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def publish(self, ad: TableAd, instance: str) -> None:
        await self.unpublish()
        txt = [f"{key}={value}" for key, value in ad.txt().items()]
        self._publisher = process = await asyncio.create_subprocess_exec(
            self._publish_tool, "--service", instance, SERVICE_TYPE, str(ad.port), *txt,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )
        self._spawn(self._watch_publisher(process))

    async def _watch_publisher(self, process: asyncio.subprocess.Process) -> None:
        """Log avahi-publish's messages; report it if it ends while still wanted."""
        assert process.stderr is not None
        last = ""
        while line := await process.stderr.readline():
            last = line.decode("utf-8", "replace").strip()[:200]
            log.info("avahi-publish: %s", last)
        await process.wait()
        if self._publisher is process:
            self._publisher = None
            self.context.emit(DiscoveryFailed("avahi", f"avahi-publish stopped ({process.returncode}): {last}"))

    async def unpublish(self) -> None:
        process, self._publisher = self._publisher, None
        if process is not None:
            await _end(process)

    async def browse(self) -> None:
        if self._browser is not None:
            return
        self._browser = process = await asyncio.create_subprocess_exec(
            self._browse_tool, "--parsable", "--resolve", "--no-db-lookup", SERVICE_TYPE,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            limit=MAX_LINE,
        )
        self._spawn(self._read_browser(process))

    async def _read_browser(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None and process.stderr is not None
        try:
            while line := await process.stdout.readline():
                self._on_line(line.decode("utf-8", "replace").rstrip("\n"))
        except (ValueError, asyncio.LimitOverrunError):
            log.warning("avahi-browse printed a line longer than %d bytes; browsing stops", MAX_LINE)
        error = (await process.stderr.read(400)).decode("utf-8", "replace").strip()
        await _end(process)
        if self._browser is process:
            self._browser = None
            self.context.emit(DiscoveryFailed("avahi", f"avahi-browse stopped ({process.returncode}): {error}"))

    def _on_line(self, line: str) -> None:
        """One line of ``avahi-browse --parsable``: ``+``/``-``/``=`` then ``;``-separated fields."""
        fields = split_fields(line)
        if len(fields) < 6 or fields[4] != SERVICE_TYPE:
            return
        kind, interface, protocol, name = fields[0], fields[1], fields[2], fields[3]
        if kind == "-":
            places = self._seen.get(name)
            if places is not None:
                places.discard((interface, protocol))
                if not places:
                    del self._seen[name]
                    self.context.emit(TableGone(name))
        elif kind == "=" and len(fields) >= 10:
            try:
                ad = TableAd.from_txt(name, fields[7], parse_port(fields[8]), parse_txt(fields[9]))
            except ProtocolError as error:
                log.info("ignored an announcement: %s", error)
                return
            self._seen.setdefault(name, set()).add((interface, protocol))
            self.context.emit(TableSeen(ad))

    async def close(self) -> None:
        await self.unpublish()
        process, self._browser = self._browser, None
        if process is not None:
            await _end(process)
        for task in list(self._tasks):
            task.cancel()


async def _end(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        try:
            process.terminate()
        except ProcessLookupError:
            pass
    await process.wait()


def split_fields(line: str) -> list[str]:
    """Split a parsable avahi-browse line on ``;`` and undo avahi's escapes in each field.

    avahi writes a ``;``, ``.`` or ``\\`` inside a name as ``\\;``, ``\\.``, ``\\\\``, and
    other bytes as ``\\DDD`` (decimal). The TXT field (the last) is kept as written.
    """
    fields: list[str] = []
    current: list[str] = []
    index = 0
    while index < len(line):
        char = line[index]
        if char == ";" and len(fields) < 9:
            fields.append(_unescape("".join(current)))
            current = []
        else:
            current.append(char)
            if char == "\\" and index + 1 < len(line):
                index += 1
                current.append(line[index])
        index += 1
    fields.append("".join(current) if len(fields) == 9 else _unescape("".join(current)))
    return fields


def _unescape(text: str) -> str:
    out = bytearray()
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and text[index + 1 : index + 4].isdigit() and len(text[index + 1 : index + 4]) == 3:
            out.append(int(text[index + 1 : index + 4]) & 0xFF)
            index += 4
        elif char == "\\" and index + 1 < len(text):
            out += text[index + 1].encode("utf-8")
            index += 2
        else:
            out += char.encode("utf-8")
            index += 1
    return out.decode("utf-8", "replace")


def parse_txt(text: str) -> dict[str, str]:
    """Read avahi's TXT notation ``"k=v" "k2=v2"`` (``\\"``, ``\\\\`` and ``\\DDD`` escaped)."""
    pairs: dict[str, str] = {}
    index = 0
    while index < len(text):
        if text[index] != '"':
            index += 1
            continue
        index += 1
        raw: list[str] = []
        while index < len(text) and text[index] != '"':
            if text[index] == "\\" and index + 1 < len(text):
                raw.append(text[index : index + 2])
                index += 2
            else:
                raw.append(text[index])
                index += 1
        index += 1
        item = _unescape("".join(raw))
        key, sep, value = item.partition("=")
        if sep and key not in pairs:
            pairs[key] = value
    return pairs
