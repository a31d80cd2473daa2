"""Text normalisation for question identity: the same question typed with other punctuation,
width or spacing is the same question."""
from __future__ import annotations

import re
import unicodedata

_STRIP = re.compile(r"[\s\W_]+", re.UNICODE)
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def normalize_question(text: str) -> str:
    """NFKC, casefold, and drop whitespace, punctuation and symbols."""
    return _STRIP.sub("", unicodedata.normalize("NFKC", text).casefold())[:500]


def guess_lang(text: str) -> str:
    """'zh' when the text contains Han characters, else 'en'."""
    return "zh" if _HAN.search(text) else "en"
