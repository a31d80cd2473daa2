"""Where a redirect may go: same-site paths only (no open redirects)."""
from __future__ import annotations

from urllib.parse import urlsplit


def safe_local_target(target: str | None, default: str) -> str:
    """``target`` when it is a same-site relative path, else ``default`` (no open redirects)."""
    # Browsers read "/\\host" as "//host", so a backslash after the slash is refused too.
    if (target and target.startswith("/") and not target.startswith(("//", "/\\"))
            and not urlsplit(target).netloc):
        return target
    return default
