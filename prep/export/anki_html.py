"""An explanation's HTML made to stand alone in an Anki card.

Anki shows a card without prep's stylesheet and without a site around it, so:

- links and images to prep's own pages ("/explanations/ring", "/static/…") become absolute
  (``base_url``), and in-page anchors lose their link (nothing to jump to in a card);
- code keeps its colours: each Pygments class (``<span class="k">``) gets the inline style the
  light theme gives it;
- formulas stay as TeX between \\( \\) and \\[ \\], which Anki's own MathJax typesets.

Pure module: parsed with BeautifulSoup (linear in its input), no Flask, no database.
"""
from __future__ import annotations

import functools
from urllib.parse import urljoin

from bs4 import BeautifulSoup
from pygments.styles import get_style_by_name
from pygments.token import STANDARD_TYPES

STYLE = "default"  # the light theme the site uses for code


@functools.lru_cache(maxsize=4)
def token_styles(style_name: str = STYLE) -> dict[str, str]:
    """Pygments' short class name ("k", "s2" …) → its inline CSS in ``style_name``."""
    style = get_style_by_name(style_name)
    out: dict[str, str] = {}
    for token, short in STANDARD_TYPES.items():
        if not short:
            continue
        spec = style.style_for_token(token)
        parts = []
        if spec["color"]:
            parts.append(f"color:#{spec['color']}")
        if spec["bold"]:
            parts.append("font-weight:bold")
        if spec["italic"]:
            parts.append("font-style:italic")
        if spec["bgcolor"]:
            parts.append(f"background-color:#{spec['bgcolor']}")
        if parts:
            out[short] = ";".join(parts)
    return out


def for_anki(html: str, base_url: str) -> str:
    """``html`` with absolute links and inline code colours (see the module's docstring)."""
    soup = BeautifulSoup(html, "html.parser")
    base = base_url.rstrip("/") + "/"
    for tag in soup.find_all(["a", "img"]):
        attr = "href" if tag.name == "a" else "src"
        value = tag.get(attr)
        if not isinstance(value, str):
            continue
        if value.startswith("#"):
            del tag[attr]
        elif value.startswith("/") and not value.startswith("//"):
            tag[attr] = urljoin(base, value.lstrip("/"))
    styles = token_styles()
    for block in soup.select(".highlight"):
        block["style"] = "background:#f8f8f8"
        for span in block.find_all("span", class_=True):
            inline = [styles[c] for c in span.get("class", []) if c in styles]
            if inline:
                span["style"] = ";".join(inline)
    return str(soup)
