"""Read a form out of a page with a real HTML parser and submit it as a browser would (test helper)."""
from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class _FormReader(HTMLParser):
    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.action: str | None = None
        self.fields: list[tuple[str, str]] = []
        self._textarea: str | None = None
        self._text: list[str] = []
        self._select: str | None = None
        self._selected: str | None = None
        self._first_option: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == self.form_id:
            self.inside, self.action = True, a.get("action")
            return
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((name, a.get("value", "on") or "on"))
            elif kind not in ("submit", "button", "file"):
                self.fields.append((name, a.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []
        elif tag == "select" and name:
            self._select, self._selected, self._first_option = name, None, None
        elif tag == "option" and self._select is not None:
            if self._first_option is None:
                self._first_option = a.get("value", "")
            if "selected" in a:
                self._selected = a.get("value", "")

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "textarea" and self._textarea is not None:
            text = "".join(self._text).replace("\r\n", "\n").replace("\r", "\n")  # as HTML normalises
            self.fields.append((self._textarea, text[1:] if text.startswith("\n") else text))
            self._textarea = None
        elif tag == "select" and self._select is not None:
            self.fields.append((self._select, self._selected if self._selected is not None else self._first_option or ""))
            self._select = None


def read_form(html: str, form_id: str) -> tuple[str, dict[str, Any]]:
    """The form's action and its fields as a browser would submit them unchanged."""
    reader = _FormReader(form_id)
    reader.feed(html)
    reader.close()
    if reader.action is None:
        raise AssertionError(f"no form #{form_id} in the page")
    data: dict[str, Any] = {}
    for name, value in reader.fields:
        data.setdefault(name, value)
    return reader.action, data


def review_and_save(client, response, changes: dict[str, Any] | None = None, drop: tuple[str, ...] = ()):
    """After POST /postings/new: submit the review checklist (with ``changes``) to save the posting.

    A response that is not the review page (an error, a redirect to an existing posting) is
    returned as it is."""
    html = response.get_data(as_text=True)
    if response.status_code != 200 or 'id="review-form"' not in html:
        return response
    action, data = read_form(html, "review-form")
    for name in drop:
        data.pop(name, None)
    data.update(changes or {})
    return client.post(action, data=data)
