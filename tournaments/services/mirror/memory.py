"""The pusher's memory (docs/venue.md, "The pusher"): a process that runs all day.

Each export leaves cyclic garbage (a prefetched match and its participants point at each
other), and it lives long enough to reach the gc's oldest generation, which CPython sweeps
only once what waited there since the last sweep is a quarter of what survived it. The
pusher's imports are some 140,000 such objects: its garbage piled up for three simulated
hours at a time (to 32,000 objects), the pymalloc arenas it spread over grew from 51 to
58 (1 MiB each) and stayed: RSS rose 5 to 7 MiB from hour 1 (docs/performance.md,
"venue5"). ``settle`` at the pusher's start moves what is there (imports, settings, the
app registry) to the gc's permanent generation, never walked again; ``sweep`` before each
push and after each look then frees the garbage at once, walking only what was made since
the start (0.3 ms for 6,000 objects, where a collection of the whole pusher takes 30 to
60 ms). Not glibc: its heap stayed at 22 to 23 MiB all day (mallinfo2), so no malloc_trim.

``probe`` (ARBITER_PUSHER_PROBE=1, off by default): one log line at the start, after a
look that pushed, and on SIGUSR1, with what tells a kept object from the allocators' own
keeping: the gc's counts, Python's allocated blocks, pymalloc's arenas, glibc's heap
(mallinfo2), the caches that fill lazily, and tracemalloc's total when it traces
(PYTHONTRACEMALLOC). For a bench or a diagnosis (bench.venue's BENCH_VENUE_PUSHER_PROBE).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import logging
import os
import re
import sys
import tempfile
import threading
import tracemalloc
from typing import Any

from django.db import reset_queries

log = logging.getLogger(__name__)

_FIELDS = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
           "fordblks", "keepcost")  # fmt: skip


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in _FIELDS]


def _libc() -> Any:
    """The C library when it is glibc (mallinfo2 is glibc's own), else None."""
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 - only glibc has it
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _libc()


def settle() -> None:
    """The long-running pusher's start, its code imported: what exists now lives as long as
    the process, so the gc stops walking it (gc.freeze); the second collection sets the
    oldest generation's count of survivors near 0, so its sweeps follow the garbage made
    from now on instead of waiting for a quarter of the imports' 140,000 objects."""
    global _settled
    gc.collect()
    gc.freeze()
    gc.collect()
    _settled = True


_settled = False


def sweep() -> None:
    """After each push of a settled pusher: free its cyclic garbage now. After ``settle``
    a full collection walks only the objects made since the start (under a millisecond);
    elsewhere (the web process's thread, a Celery worker) nothing, as one would walk the
    whole process."""
    if _settled:
        # DEBUG (`make run`): the query log of a run of up to 100 pushes, emptied only
        # when the run ends (runner.run_due), made each run's peak, and so the arenas, vary
        reset_queries()
        gc.collect()


def probing() -> bool:
    return os.environ.get("ARBITER_PUSHER_PROBE", "") == "1"


def mallinfo() -> dict[str, int]:
    """glibc's heap in KiB: arena (the main heap's size), hblkhd (mmap'd blocks), uordblks
    (in use), fordblks (free, kept), keepcost (free at the top, trimmable). {} elsewhere."""
    if _LIBC is None or not hasattr(_LIBC, "mallinfo2"):
        return {}
    _LIBC.mallinfo2.restype = _Mallinfo2
    found = _LIBC.mallinfo2()
    return {
        name: getattr(found, name) // 1024
        for name in ("arena", "hblkhd", "uordblks", "fordblks", "keepcost")
    }


_PYMALLOC = {
    "arenas": re.compile(r"# arenas allocated current\s*=\s*([\d,]+)"),
    "arenas_highwater": re.compile(r"# arenas highwater mark\s*=\s*([\d,]+)"),
    "allocated_kib": re.compile(r"# bytes in allocated blocks\s*=\s*([\d,]+)"),
    "available_kib": re.compile(r"# bytes in available blocks\s*=\s*([\d,]+)"),
    "free_pools_kib": re.compile(r"\d+ unused pools \* \d+ bytes\s*=\s*([\d,]+)"),
}


def pymalloc() -> dict[str, int]:
    """pymalloc's arenas (sys._debugmallocstats, which writes to the C stderr): how many,
    and the bytes in blocks in use, free blocks and free pools (KiB)."""
    sys.stderr.flush()
    with tempfile.TemporaryFile() as out:
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode(errors="replace")
    found = {}
    for name, pattern in _PYMALLOC.items():
        match = pattern.search(text)
        if match:
            value = int(match.group(1).replace(",", ""))
            found[name] = value // 1024 if name.endswith("_kib") else value
    return found


def caches() -> dict[str, int]:
    """The sizes of the caches a long-running Django process fills as it goes."""
    found: dict[str, int] = {"modules": len(sys.modules), "re": len(getattr(re, "_cache", {}))}
    with contextlib.suppress(Exception):
        from django.utils.translation import trans_real

        found["translations"] = len(getattr(trans_real, "_translations", ()))
    with contextlib.suppress(Exception):
        from django.core.cache import caches as django_caches

        found["locmem"] = len(getattr(django_caches["default"], "_cache", ()))
    with contextlib.suppress(Exception):
        from django.db import connection

        found["queries"] = len(connection.queries_log)
    with contextlib.suppress(Exception):
        from psycopg import _queries

        # each SQL text's parsed form, kept up to 128 (a prefetch's IN list of each length)
        found["psycopg_sql"] = sum(
            getattr(_queries, name).cache_info().currsize
            for name in ("_query2pg", "_query2pg_client")
        )
    return found


def probe(label: str = "") -> dict[str, Any]:
    """What the probe logs (see the module's doc): one JSON line, "pusher memory: {...}"."""
    found: dict[str, Any] = {
        "label": label,
        "gc_objects": len(gc.get_objects()),
        "gc_counts": gc.get_count(),
        # collections so far and objects they freed, per generation (a full one is the 3rd)
        "gc_runs": [(g["collections"], g["collected"]) for g in gc.get_stats()],
        "gc_frozen": gc.get_freeze_count(),
        "blocks": sys.getallocatedblocks(),
        "threads": threading.active_count(),
        "malloc": mallinfo(),
        "pymalloc": pymalloc(),
        "caches": caches(),
    }
    if tracemalloc.is_tracing():
        found["traced_kib"] = tracemalloc.get_traced_memory()[0] // 1024
    log.info("pusher memory: %s", json.dumps(found, separators=(",", ":")))
    return found
