"""Keeping the table's memory small on a Pi: glibc's malloc arenas.

Each thread that allocates while another holds the main heap gets an arena of its own (up to 8 per core), and
freed memory stays in its arena: photo reads in the site's many threads leave the process far larger than what
it uses. ``MALLOC_ARENA_MAX=2`` caps them. The systemd unit sets it in the environment; ``jantaku run`` and
``jantaku serve`` call :func:`limit_malloc_arenas` first thing, which does the same through ``mallopt`` when
the variable is not set (arenas are made lazily, so a cap set before the threads start holds for them).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

#: Arenas allowed when ``MALLOC_ARENA_MAX`` is not set.
DEFAULT_ARENAS = 2
#: glibc's ``M_ARENA_MAX`` option for ``mallopt`` (malloc.h).
M_ARENA_MAX = -8


def limit_malloc_arenas(arenas: int = DEFAULT_ARENAS) -> bool:
    """Cap glibc's malloc arenas at ``arenas`` unless ``MALLOC_ARENA_MAX`` already says how many (glibc read it
    at start). Returns whether a cap is in force: False on a C library other than glibc (nothing to do there)."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and others: no mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return mallopt(M_ARENA_MAX, arenas) == 1
