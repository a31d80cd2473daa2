"""Templates translate through callables bound to the request's catalog once per render
(prep.i18n.template_gettext): they must give what Flask-Babel's Jinja callables give
(newstyle: marked safe, then %-formatted with escaped arguments; ``num`` for ngettext)."""
from __future__ import annotations

import pytest
from flask import render_template_string
from flask_babel import force_locale

from prep.i18n import template_gettext

SOURCE = (
    "{{ _('Answer') }}|{{ _('Rate: %(name)s — recalled it', name='<b>Good</b>') }}|"
    "{{ gettext('No such text %(x)s', x='&') }}|{{ _('100%% sure') }}|"
    "{{ ngettext('%(num)s card to review today.', '%(num)s cards to review today.', 3) }}|"
    "{{ ngettext('%(num)s card to review today.', '%(num)s cards to review today.', 1, num='<i>') }}|"
    "{% trans n=2 %}Keys: <kbd>Space</kbd> show answer{% endtrans %}|"
    "{% autoescape false %}{{ _('Rate: %(name)s — recalled it', name='<b>') }}{% endautoescape %}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bound_callables_translate_as_flask_babels(app, lang):
    with app.test_request_context("/"), force_locale(lang):
        fast = render_template_string(SOURCE)  # the context processor's callables
        reference = app.jinja_env.from_string(SOURCE).render()  # Flask-Babel's globals only
        assert "_" in template_gettext()
    assert fast == reference
    assert "&lt;b&gt;Good&lt;/b&gt;" in fast and "100% sure" in fast
    if lang == "zh":
        assert "评分" in fast
