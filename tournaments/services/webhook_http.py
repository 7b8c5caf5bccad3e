"""Posting a webhook without letting a URL reach inside the network (SSRF).

A receiver's URL is checked (http or https, a host, no user or password in it), its host
is resolved once, every address it resolves to must be public (no private, loopback,
link-local, reserved, multicast or unspecified address, IPv4 or IPv6, an IPv4-mapped IPv6
address judged as the IPv4 it carries), and the request connects to that very address:
a DNS answer that changes between the check and the connection (rebinding) is never
asked again. The Host header and TLS's server name stay the URL's host, and redirects
are never followed (a 3xx is an answer like any other, not delivered).

ARBITER_WEBHOOK_ALLOW_LOCAL (off by default) lets loopback and private addresses through,
for tests and for a venue's own network; link-local (cloud metadata services), multicast,
reserved and unspecified addresses stay refused whatever it says.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings as conf
from django.utils.translation import gettext as _

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class UnsafeTarget(ValueError):
    """The URL may not be called: the message says why (shown to the director)."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str  # the resolved address the connection goes to


def check_url(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path with query) of ``url``, or UnsafeTarget."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise UnsafeTarget(_("The URL is not valid.")) from None
    if parts.scheme not in ("http", "https"):
        raise UnsafeTarget(_("The URL must start with http:// or https://."))
    if parts.username is not None or parts.password is not None:
        raise UnsafeTarget(_("The URL may not carry a user name or password."))
    host = parts.hostname or ""
    if not host:
        raise UnsafeTarget(_("The URL has no host."))
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return parts.scheme, host, port, path


def refusal(address: Address, *, allow_local: bool | None = None) -> str:
    """Why a connection to ``address`` is refused ("" if it is allowed)."""
    if allow_local is None:
        allow_local = bool(getattr(conf, "ARBITER_WEBHOOK_ALLOW_LOCAL", False))
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
    if address.is_unspecified:
        return _("an unspecified address")
    if address.is_multicast:
        return _("a multicast address")
    if address.is_link_local:
        return _("a link-local address")
    if address.is_loopback:
        return "" if allow_local else _("a loopback address")
    if address.is_reserved:
        return _("a reserved address")
    if address.is_private or (isinstance(address, ipaddress.IPv6Address) and address.is_site_local):
        return "" if allow_local else _("a private address")
    if not address.is_global:
        return _("a reserved address")
    return ""


def resolve(url: str) -> Target:
    """Check ``url`` and resolve its host once; UnsafeTarget if any address it resolves to
    is refused (a name that resolves to one public and one private address is refused)."""
    scheme, host, port, path = check_url(url)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise UnsafeTarget(_("The host %(host)s cannot be resolved.") % {"host": host}) from None
    addresses = []
    for _family, _type, _proto, _name, sockaddr in found:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        why = refusal(address)
        if why:
            raise UnsafeTarget(
                _("%(host)s resolves to %(address)s, %(why)s: webhooks cannot reach it.")
                % {"host": host, "address": address, "why": why}
            )
        addresses.append(str(address))
    if not addresses:
        raise UnsafeTarget(_("The host %(host)s cannot be resolved.") % {"host": host})
    return Target(scheme, host, port, path, addresses[0])


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context()
        )
        self._address = target.address

    def connect(self) -> None:
        raw = socket.create_connection((self._address, self.port), self.timeout)
        # the certificate is checked against the URL's host name (SNI too)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


def post(target: Target, body: bytes, headers: dict[str, str], *, timeout: float) -> int:
    """POST ``body`` to the resolved ``target``; returns the answer's status code. Network
    errors raise OSError (http.client.HTTPException is turned into one)."""
    connection: http.client.HTTPConnection
    if target.scheme == "https":
        connection = _PinnedHTTPS(target, timeout)
    else:
        connection = _PinnedHTTP(target, timeout)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(4096)  # a little of the answer, never followed anywhere
        return int(response.status)
    except http.client.HTTPException as error:
        raise OSError(f"{error.__class__.__name__}: {error}") from error
    finally:
        connection.close()
