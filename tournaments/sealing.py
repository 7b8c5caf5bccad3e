"""Secrets this machine must send again, kept sealed at rest: venue mode's mirror token
(docs/venue.md, "The mirror token"). The venue has to recover the token to push, so it
cannot be stored hashed as the public copy stores it; it is stored encrypted with a key
derived from SECRET_KEY, so a copy of the database alone (a backup, a laptop's disk image)
does not give the token away.

Why this construction: the project's locked requirements hold no encryption library
(`cryptography`'s Fernet would be the first choice; adding it and its hashes to
requirements.lock is a release decision), so the seal is built from the standard library's
HMAC-SHA256 only, in textbook compositions: HKDF (RFC 5869) derives two keys from
SECRET_KEY, HMAC-SHA256 in counter mode under a random 128-bit nonce is the keystream
(a pseudo-random function in counter mode), and HMAC-SHA256 over the version, nonce and
ciphertext is the tag, checked in constant time before anything is decrypted
(encrypt-then-MAC). A sealed value is "s1:" and the URL-safe base64 of nonce, ciphertext
and tag. SECRET_KEY_FALLBACKS open values sealed under an earlier key (a key rotation);
a value sealed under a key this machine no longer has cannot be opened (ValueError), and
the director enters the token again.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from django.conf import settings

VERSION = "s1"
NONCE = 16
TAG = 32
_BLOCK = 32
_SALT = b"arbiter.sealing.v1"


def _hkdf(secret_key: str, info: bytes) -> bytes:
    """One 32-byte key of RFC 5869's HKDF-SHA256 (one block: L = 32)."""
    pseudo_random = hmac.new(_SALT, secret_key.encode(), hashlib.sha256).digest()
    return hmac.new(pseudo_random, info + b"\x01", hashlib.sha256).digest()


def _keys(secret_key: str, purpose: str) -> tuple[bytes, bytes]:
    name = purpose.encode()
    return _hkdf(secret_key, b"encrypt:" + name), _hkdf(secret_key, b"authenticate:" + name)


def _keystream(key: bytes, nonce: bytes, length: int) -> bytes:
    blocks = (length + _BLOCK - 1) // _BLOCK
    stream = b"".join(
        hmac.new(key, nonce + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for counter in range(blocks)
    )
    return stream[:length]


def _xor(data: bytes, stream: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, stream, strict=True))


def _tag(key: bytes, nonce: bytes, ciphertext: bytes) -> bytes:
    return hmac.new(key, VERSION.encode() + nonce + ciphertext, hashlib.sha256).digest()


def is_sealed(value: str) -> bool:
    return value.startswith(VERSION + ":")


def seal(plain: str, *, purpose: str = "mirror-token", secret_key: str | None = None) -> str:
    """``plain`` sealed under SECRET_KEY (or ``secret_key``) for ``purpose``: a value
    sealed for one purpose does not open for another."""
    encrypt, authenticate = _keys(secret_key or settings.SECRET_KEY, purpose)
    nonce = secrets.token_bytes(NONCE)
    data = plain.encode()
    ciphertext = _xor(data, _keystream(encrypt, nonce, len(data)))
    body = nonce + ciphertext + _tag(authenticate, nonce, ciphertext)
    return VERSION + ":" + base64.urlsafe_b64encode(body).decode().rstrip("=")


def unseal(value: str, *, purpose: str = "mirror-token") -> str:
    """The plain text of a sealed ``value``; ValueError when it is not one, was altered,
    or was sealed under a key this machine no longer has."""
    if not is_sealed(value):
        raise ValueError("not a sealed value")
    text = value[len(VERSION) + 1 :]
    try:
        body = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as error:
        raise ValueError("not a sealed value") from error
    if len(body) < NONCE + TAG:
        raise ValueError("not a sealed value")
    nonce, ciphertext, tag = body[:NONCE], body[NONCE:-TAG], body[-TAG:]
    for secret_key in [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]:
        encrypt, authenticate = _keys(secret_key, purpose)
        if hmac.compare_digest(tag, _tag(authenticate, nonce, ciphertext)):
            return _xor(ciphertext, _keystream(encrypt, nonce, len(ciphertext))).decode()
    raise ValueError("sealed under another SECRET_KEY, or altered")
