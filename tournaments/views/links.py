"""Addresses of numbered public pages (a round, an entrant), reversed once per event.

An entrant page links each of its rounds and each opponent: a dozen ``{% url %}`` tags,
a tenth of the page's build when hundreds of different entrant pages are asked for after
a round's release (docs/performance.md). The address of a number is the address reversed
for another number with the number put in its place: the converter is ``int``, which
writes a number as it is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.urls import get_script_prefix, reverse

_MARK = 918273645  # a number no slug holds


@functools.lru_cache(maxsize=256)
def _around(name: str, slug: str, prefix: str) -> tuple[str, str]:
    head, tail = reverse(name, args=[slug, _MARK]).rsplit(str(_MARK), 1)
    return head, tail


def numbered(name: str, slug: str) -> Callable[[int], str]:
    """``number -> reverse(name, args=[slug, number])`` for a URL name whose arguments are
    the event's slug and an ``int``."""
    head, tail = _around(name, slug, get_script_prefix())  # (reverse reads the prefix too)
    return lambda number: f"{head}{int(number)}{tail}"
