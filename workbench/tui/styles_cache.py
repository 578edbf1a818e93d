"""A closed screen's widgets leave memory with it: Textual's style cache does not keep them.

Textual (8.2) caches `StylesCache.get_inner_outer`, a method, with `functools.lru_cache(1024)`:
its key holds the widget's `StylesCache` itself, and with it every line that widget drew (each
`Strip` with its caches). So the last 1,024 widgets drawn stay in memory after their screen is
closed: the Inspect screen's page picture and text layers of each case looked at, the Runs table
of each run opened (Textualize/textual#6665, open). A long session grew by them, and every full
garbage collection walked them again: a fifth of the CPU time of the screen tests, which open
hundreds of screens in one process.

The method's result depends only on its two colours, so it is cached on them here instead.
"""

from __future__ import annotations

from functools import lru_cache

from textual._styles_cache import StylesCache


def cache_colours_only() -> None:
    """Make `StylesCache.get_inner_outer` cache on its colours, not on the widget's cache (once a
    process). Left as it is where Textual no longer caches it so (no `cache_info`)."""
    method = StylesCache.__dict__.get("get_inner_outer")
    if getattr(method, "colours_only", False) or not hasattr(method, "cache_info"):
        return
    compute = method.__wrapped__

    @lru_cache(1024)
    def inner_outer(base_background, background):
        return compute(None, base_background, background)

    def get_inner_outer(self: StylesCache, base_background, background):
        return inner_outer(base_background, background)

    get_inner_outer.colours_only = True
    get_inner_outer.__doc__ = method.__doc__
    StylesCache.get_inner_outer = get_inner_outer
    method.cache_clear()
