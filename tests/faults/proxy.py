"""A TCP proxy on loopback that can drop or stall the connections passing through it.

    with FaultProxy("127.0.0.1", 5432) as proxy:   # the app connects to proxy.port
        proxy.stall(); ...; proxy.resume()         # bytes wait in the proxy, both ways
        proxy.drop()                               # every open connection is cut now
        proxy.cut_at_next_send(forward=True)       # the next client packet reaches the
                                                   # server, its answer is lost, then cut
        proxy.refuse = True                        # new connections are closed at once

Pure Python (sockets, select, threads); it listens on 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
import time


class FaultProxy:
    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.refuse = False
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._running = threading.Event()
        self._flowing = threading.Event()
        self._flowing.set()
        self._cut: bool | None = None  # forward the next client packet before cutting?
        self.connections = 0

    # -- controls --------------------------------------------------------------------------

    def stall(self) -> None:
        self._flowing.clear()

    def resume(self) -> None:
        self._flowing.set()

    def drop(self) -> None:
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for sock in pair:
                _close(sock)

    def cut_at_next_send(self, *, forward: bool) -> None:
        """Cut every connection at the next bytes a client sends: after they reached the
        server (forward=True: the server acts, its answer is lost) or before."""
        self._cut = forward

    # -- running ---------------------------------------------------------------------------

    def __enter__(self) -> FaultProxy:
        self._running.set()
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._running.clear()
        self.resume()
        _close(self._listener)
        self.drop()

    def _accept(self) -> None:
        while self._running.is_set():
            try:
                ready, _, _ = select.select([self._listener], [], [], 0.05)
                if not ready:
                    continue
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.refuse:
                _close(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._pairs.append((client, upstream))
                self.connections += 1
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, client: socket.socket, upstream: socket.socket) -> None:
        ends = {client: upstream, upstream: client}
        try:
            while self._running.is_set():
                if not self._flowing.wait(0.05):
                    continue
                ready, _, _ = select.select(list(ends), [], [], 0.05)
                for source in ready:
                    if not self._flowing.is_set():
                        break  # stalled between select and read: leave the bytes waiting
                    data = source.recv(65536)
                    if not data:
                        raise OSError("closed")
                    if source is client and self._cut is not None:
                        forward, self._cut = self._cut, None
                        if forward:
                            upstream.sendall(data)
                            time.sleep(0.2)  # the server acts on it; its answer is lost
                        self.drop()
                        return
                    ends[source].sendall(data)
        except OSError:
            pass
        finally:
            _close(client)
            _close(upstream)
            with self._lock:
                if (client, upstream) in self._pairs:
                    self._pairs.remove((client, upstream))


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
