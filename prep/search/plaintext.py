"""The text a reader sees in an explanation's rendered HTML: what search matches and quotes.

Markdown syntax, HTML tags and the TeX of formulas are not text a reader sees; code is (its
highlighting spans are dropped, its words kept). Pure module: the HTML is parsed with lxml's HTML
parser (libxml2: linear in its input; ``huge_tree`` lifts its depth limit far past the few dozen
levels the renderer, which escapes raw HTML, ever nests), never with regular
expressions. An explanation's highlighted code is thousands of tags: lxml reads the shipped
explanations more than ten times faster than BeautifulSoup over Python's parser, which made the
first search after a restart take seconds.
"""
from __future__ import annotations

from lxml import etree, html as lxml_html

_PARSER = lxml_html.HTMLParser(huge_tree=True, remove_comments=True, remove_pis=True)
_HIDDEN = ("script", "style", "template")
_MATH = etree.XPath('.//*[contains(concat(" ", normalize-space(@class), " "), " math ")]')


def plain_text(html: str) -> str:
    """The visible words of ``html``, whitespace collapsed; a formula becomes "…"."""
    if not html.strip():
        return ""
    root = lxml_html.fragment_fromstring(html, create_parent="div", parser=_PARSER)
    for tag in list(root.iter(*_HIDDEN)):
        tag.drop_tree()
    for tag in _MATH(root):  # TeX, typeset by KaTeX in the browser
        tag.clear(keep_tail=True)
        tag.text = " … "
    return " ".join(" ".join(root.itertext()).split())
