"""The text a reader sees in an explanation's rendered HTML: what search matches and quotes.

Markdown syntax, HTML tags and the TeX of formulas are not text a reader sees; code is (its
highlighting spans are dropped, its words kept). Pure module: the HTML is parsed with
BeautifulSoup's stdlib parser (linear in its input), never with regular expressions.
"""
from __future__ import annotations

from bs4 import BeautifulSoup

def plain_text(html: str) -> str:
    """The visible words of ``html``, whitespace collapsed; a formula becomes "…"."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(["script", "style", "template"]):
        tag.decompose()
    for tag in soup.select(".math"):  # TeX, typeset by KaTeX in the browser
        tag.replace_with(" … ")
    return " ".join(soup.get_text(" ").split())
