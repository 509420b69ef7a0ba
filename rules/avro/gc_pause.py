"""Pause the cycle collector while a big schema is parsed or compared."""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def gc_paused():
    """Parsing and pairing allocate tens of thousands of objects and free almost none, so the
    collector would only rescan them over and over; they live until the report is made."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
