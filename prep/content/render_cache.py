"""A cache of rendered explanations: an LRU of :class:`.render.Rendered` results keyed by the
renderer version, a context and the text.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from .render import RENDERER_VERSION, Rendered, render_markdown


def render_key(text: str, context: str = "") -> str:
    """The cache key of ``text``: sha256 of the renderer version, ``context`` and the text.

    ``context`` distinguishes renderings of the same text whose cross-link targets differ
    (for example a version number of the set of slugs); leave it empty when not needed.
    """
    digest = hashlib.sha256()
    for part in (RENDERER_VERSION, context, text):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A thread-safe least-recently-used map of at most ``maxsize`` entries."""

    def __init__(self, maxsize: int = 1024) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: K) -> V | None:
        """The value for ``key`` (now the most recently used), or None."""
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: K, value: V) -> None:
        """Store ``value`` under ``key``, evicting the least recently used entry if full."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._items.clear()


class RenderCache(Lru[str, Rendered]):
    """An LRU cache of :class:`Rendered` results keyed by :func:`render_key`.

    Thread-safe. Clear it (or change ``context``) when the set of explanation slugs changes,
    since cross-link targets are resolved at render time.
    """

    def __init__(self, maxsize: int = 1024) -> None:
        super().__init__(maxsize)
        self.hits = 0
        self.misses = 0

    def render(
        self,
        text: str,
        *,
        context: str = "",
        slug_exists: Callable[[str], bool] | None = None,
        slug_url: Callable[[str], str] = lambda s: f"/explanations/{s}",
    ) -> Rendered:
        """Render ``text`` (see :func:`render_markdown`) unless a cached result exists."""
        key = render_key(text, context)
        cached = self.get(key)
        if cached is not None:
            self.hits += 1
            return cached
        self.misses += 1
        rendered = render_markdown(text, slug_exists=slug_exists, slug_url=slug_url)
        self.put(key, rendered)
        return rendered
