"""The link between a venue and the public Arbiter: a TCP proxy on loopback that a test cuts
and restores.

    with LinkProxy("127.0.0.1", public_port) as link:   # the venue pushes to link.url
        link.cut()          # refused: the port is closed, open connections are reset (RST)
        link.cut("reset")   # the port accepts, then resets each connection at once
        link.blackhole()    # the port accepts and reads, and never answers; open ones stall
        link.restore()      # the same port forwards again

A control returns once it is in force: a connection opened after ``cut()`` returned is
refused, one opened after ``blackhole()`` returned hangs. Black-holed connections are reset
when the link is restored (what they sent went nowhere; a client must not read an answer
that was never given). Pure Python: asyncio, run in a thread of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading
from collections.abc import Coroutine
from typing import Any, Literal

Mode = Literal["open", "refuse", "reset", "blackhole"]
MODES: tuple[Mode, ...] = ("open", "refuse", "reset", "blackhole")


class LinkProxy:
    def __init__(self, host: str, port: int, listen_port: int = 0) -> None:
        self.target = (host, port)
        self.mode: Mode = "open"
        self.port = listen_port or _free_port()
        self.accepted = 0  # connections accepted, whatever became of them
        self.forwarded = 0  # connections that reached the target
        self.bytes_up = 0  # venue -> public
        self.bytes_down = 0  # public -> venue
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        # every open connection: its writers (client side, upstream side or None)
        self._open: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter | None]] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- controls (from any thread) ---------------------------------------------------------

    def cut(self, how: Literal["refuse", "reset"] = "refuse") -> None:
        """The link is down: connections are refused (nothing listens) or reset on accept;
        the ones open now are reset, both ends."""
        self._call(self._set(how))

    def blackhole(self) -> None:
        """The link swallows everything: connections are accepted and read, never answered."""
        self._call(self._set("blackhole"))

    def restore(self) -> None:
        self._call(self._set("open"))

    def set_mode(self, mode: Mode) -> None:
        if mode not in MODES:
            raise ValueError(f"mode {mode!r}: one of {', '.join(MODES)}")
        self._call(self._set(mode))

    # -- running ----------------------------------------------------------------------------

    def start(self) -> LinkProxy:
        self._thread.start()
        self._call(self._listen())
        return self

    def close(self) -> None:
        if not self._thread.is_alive():
            return
        self._call(self._shutdown())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    def __enter__(self) -> LinkProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, coroutine: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(10)

    # -- in the loop ------------------------------------------------------------------------

    async def _listen(self) -> None:
        if self._server is None:
            self._server = await asyncio.start_server(
                self._serve, "127.0.0.1", self.port, reuse_address=True
            )

    async def _unlisten(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _set(self, mode: Mode) -> None:
        previous, self.mode = self.mode, mode
        if mode == "refuse":
            await self._unlisten()
        else:
            await self._listen()
        if mode in ("refuse", "reset") or (previous == "blackhole" and mode == "open"):
            self._reset_all()

    async def _shutdown(self) -> None:
        await self._unlisten()
        self._reset_all()

    def _reset_all(self) -> None:
        for pair in list(self._open):
            for writer in pair:
                if writer is not None:
                    _reset(writer)
        self._open.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        if self.mode == "reset" or self.mode == "refuse":
            _reset(writer)
            return
        if self.mode == "blackhole":
            await self._swallow(reader, writer)
            return
        try:
            up_reader, up_writer = await asyncio.wait_for(
                asyncio.open_connection(*self.target), timeout=5
            )
        except (OSError, TimeoutError):
            _reset(writer)
            return
        self.forwarded += 1
        pair = (writer, up_writer)
        self._open.add(pair)
        try:
            await asyncio.gather(
                self._pump(reader, up_writer, up=True),
                self._pump(up_reader, writer, up=False),
            )
        finally:
            self._open.discard(pair)
            for end in pair:
                _close(end)

    async def _swallow(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pair = (writer, None)
        self._open.add(pair)
        try:
            while await reader.read(65536):
                pass
        except OSError:
            pass
        finally:
            self._open.discard(pair)

    async def _pump(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, up: bool
    ) -> None:
        try:
            while data := await reader.read(65536):
                if self.mode == "blackhole":
                    continue  # the link went dark under an open connection: bytes vanish
                if self.mode != "open":
                    return
                if up:
                    self.bytes_up += len(data)
                else:
                    self.bytes_down += len(data)
                writer.write(data)
                await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()  # a half close passes through
        except OSError:
            pass


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with a TCP reset (SO_LINGER 0), not a polite FIN: the peer sees ECONNRESET."""
    sock = writer.get_extra_info("socket")
    with contextlib.suppress(OSError):
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


def _close(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError):
        writer.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
