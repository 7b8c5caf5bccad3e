"""Secrets this machine must send again, kept sealed at rest: venue mode's mirror token
(docs/venue.md, "The mirror token"). The venue has to recover the token to push, so it
cannot be stored hashed as the public copy stores it; it is stored encrypted with a key
derived from SECRET_KEY, so a copy of the database alone (a backup, a laptop's disk image)
does not give the token away.

The seal is `cryptography`'s Fernet (AES-128-CBC with an HMAC-SHA256 tag checked before
anything is decrypted) under a key HKDF derives from SECRET_KEY and the purpose, so a value
sealed for one purpose does not open for another. A sealed value is "f1:" and the Fernet
token. SECRET_KEY_FALLBACKS open values sealed under an earlier key (a key rotation); a
value sealed under a key this machine no longer has cannot be opened (ValueError), and the
director enters the token again.
"""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

VERSION = "f1"
_SALT = b"arbiter.sealing.v1"


def _fernet(secret_key: str, purpose: str) -> Fernet:
    key = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=_SALT, info=b"seal:" + purpose.encode()
    ).derive(secret_key.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def is_sealed(value: str) -> bool:
    return value.startswith(VERSION + ":")


def seal(plain: str, *, purpose: str = "mirror-token", secret_key: str | None = None) -> str:
    """``plain`` sealed under SECRET_KEY (or ``secret_key``) for ``purpose``."""
    token = _fernet(secret_key or settings.SECRET_KEY, purpose).encrypt(plain.encode())
    return VERSION + ":" + token.decode()


def unseal(value: str, *, purpose: str = "mirror-token") -> str:
    """The plain text of a sealed ``value``; ValueError when it is not one, was altered,
    or was sealed under a key this machine no longer has."""
    if not is_sealed(value):
        raise ValueError("not a sealed value")
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    opener = MultiFernet([_fernet(key, purpose) for key in keys])
    try:
        return opener.decrypt(value[len(VERSION) + 1 :].encode()).decode()
    except (InvalidToken, UnicodeError) as error:
        raise ValueError("sealed under another SECRET_KEY, or altered") from error
