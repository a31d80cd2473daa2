"""The shared web pieces stay shared: no view module writes its own user helper or
button-only form again, and no code translates or branches on an error's English text."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

PREP = Path(__file__).resolve().parents[2] / "prep"
CODE = [p for p in sorted(PREP.rglob("*.py")) if "migrations" not in p.parts]

PATTERNS = {
    "a private user helper (use prep.web.access.signed_in_user)": re.compile(r"^def _user\(", re.M),
    "a button-only form (use prep.web.forms.EmptyForm)": re.compile(r"^class \w*ActionForm\(", re.M),
    "matching an error's text (raise a class; show err.message)": re.compile(r"\bin str\(e(rr|xc)?\)"),
    "translating an error's text": re.compile(r"\b(_|gettext|lazy_gettext|_l)\(str\("),
    "a message looked up by an error's text": re.compile(r"\.get\(str\(e(rr|xc)?\)"),
}


@pytest.mark.parametrize("what", sorted(PATTERNS))
def test_no_module_writes_it_again(what):
    found = [f"{path.relative_to(PREP.parent)}:{src[:m.start()].count(chr(10)) + 1}"
             for path in CODE for src in [path.read_text(encoding="utf-8")] for m in PATTERNS[what].finditer(src)]
    assert not found, f"{what}: " + ", ".join(found)
