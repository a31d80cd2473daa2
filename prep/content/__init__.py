"""Explanations: Markdown content files, their rendering, checking, and question linking.

Pure domain modules (no Flask): ``render`` (Markdown → safe HTML) with ``markdown_rules``,
``highlight``, ``safe_urls`` and ``render_cache``; ``document`` (one file) with
``front_matter``; ``check`` (a whole tree), ``linker`` (question → explanations); ``cli``
(click commands).
"""
