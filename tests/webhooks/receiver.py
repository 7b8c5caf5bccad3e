"""A real HTTP receiver for the webhook tests: it checks each message's signature, applies
each idempotency key once, and can be down (port closed), failing (503) or losing its
answer after applying (it applied, then the connection drops: the sender must retry and
the receiver must not apply twice)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tournaments.services import webhooks


class Receiver:
    def __init__(self, secret: str = "") -> None:
        self.secret = secret
        self.mode = "up"  # "up", "503", "lose-answer-once", "410"
        self.applied: dict[str, dict] = {}  # idempotency key -> the message, applied once
        self.received: list[str] = []  # every key received, duplicates included
        self.bad_signatures = 0
        self.hosts: list[str] = []
        self._lost: set[str] = set()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook?x=1"

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                key = self.headers.get(webhooks.KEY_HEADER, "")
                with receiver._lock:
                    receiver.received.append(key)
                    receiver.hosts.append(self.headers.get("Host", ""))
                    mode = receiver.mode
                    signed = self.headers.get(webhooks.SIGNATURE_HEADER, "")
                    if receiver.secret and not webhooks.verify(receiver.secret, signed, body):
                        receiver.bad_signatures += 1
                        self.send_response(400)
                        self.end_headers()
                        return
                    if mode == "503":
                        self.send_response(503)
                        self.end_headers()
                        return
                    if mode == "410":
                        self.send_response(410)
                        self.end_headers()
                        return
                    if key not in receiver.applied:  # the idempotency key, honoured
                        receiver.applied[key] = json.loads(body)
                    if mode == "lose-answer-once" and key not in receiver._lost:
                        receiver._lost.add(key)
                        self.close_connection = True
                        self.connection.close()  # applied, but the answer never arrives
                        return
                self.send_response(204)
                self.end_headers()

        if self._server is None:
            self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
            self._server.daemon_threads = True
            self.port = self._server.server_address[1]
            threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        """The receiver is down: its port is closed (connections are refused)."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
