"""Traditional Chinese read as Simplified.

The question finder's words are written in simplified characters (面试, 问了, 题目, 岗位), so a
document in traditional characters (面試, 問了, 題目, 崗位) is read through OpenCC's table of
characters (:mod:`prep.chinese_script`), one character for one: the text keeps its length and
every offset, and what is found is given back in the document's own characters.

Pure module: text in, text out.
"""
from __future__ import annotations

from collections.abc import Callable

from prep.chinese_script import simplified_characters

#: A document is read as traditional when this many of its characters are traditional ones, and
#: this share of its Chinese characters: a simplified page quoting one traditional name is not.
MIN_TRADITIONAL = 5
MIN_TRADITIONAL_SHARE = 0.02


def _same(text: str) -> str:
    return text


def read_simplified(text: str) -> tuple[str, Callable[[str], str]]:
    """``text`` as the finder reads it, and how to give back a piece of it in the document's own
    characters. A document that is not mostly traditional is read as it is."""
    if text.isascii():
        return text, _same
    folded = text.translate(simplified_characters())
    changed = sum(1 for a, b in zip(text, folded) if a != b)
    if changed < MIN_TRADITIONAL:
        return text, _same
    chinese = sum(1 for c in text if "\u4e00" <= c <= "\u9fff")
    if changed < MIN_TRADITIONAL_SHARE * chinese:
        return text, _same
    return folded, _restorer(text, folded)


def _restorer(text: str, folded: str) -> Callable[[str], str]:
    """The piece as the document wrote it: found in the read text, the same span of the document;
    otherwise each simplified character back to the one traditional character the document wrote
    for it (never one the document also writes as it is, as 后 in 皇后 beside 後來)."""
    native = {b for a, b in zip(text, folded) if a == b}
    back: dict[str, set[str]] = {}
    for a, b in zip(text, folded):
        if a != b:
            back.setdefault(b, set()).add(a)
    table = {ord(b): next(iter(a)) for b, a in back.items() if len(a) == 1 and b not in native}
    cursor = 0  # pieces come in the document's order: each is looked for after the last one found

    def restore(piece: str) -> str:
        nonlocal cursor
        if not piece:
            return piece
        at = folded.find(piece, cursor)
        if at < 0:
            at = folded.find(piece, 0, cursor + len(piece))  # (one pass over the text a piece, at most)
        if at < 0:
            return piece.translate(table)
        cursor = at
        return text[at:at + len(piece)]

    return restore
