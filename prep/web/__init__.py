"""The web layer's shared pieces, used by every feature's blueprint (``routes.py``).

- :mod:`prep.web.access`: who may see a page (``instructor_required``, ``admin_required``) and
  the logged-in user (``signed_in_user``).
- :mod:`prep.web.args`: whole-number query arguments (``int_arg``, ``page_arg``).
- :mod:`prep.web.pagination`: one page of a ``select`` (``paginate``, over ``db.paginate``).
- :mod:`prep.web.forms`: ``EmptyForm``, the CSRF-protected form of every button-only POST.
- :mod:`prep.web.redirects`: same-site redirect targets (``safe_local_target``).
- :mod:`prep.web.templating`: Jinja filters (``local_time``).
- :mod:`prep.web.input_guard`: refuses NUL characters in any request value.
- :mod:`prep.web.json_body`: malformed or over-deep JSON bodies are a JSON 400 (``MAX_JSON_DEPTH``).

Features import these; nothing here imports a feature.
"""
