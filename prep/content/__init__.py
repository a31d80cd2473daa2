"""Explanations: Markdown files, their rendering, checking, syncing into the database, instructor
editing, linking questions to them, their pages and the ``prep content``/``prep link`` commands.

Pure modules (no Flask, no database): ``render`` (Markdown → safe HTML) with ``markdown_rules``,
``highlight``, ``safe_urls`` and ``render_cache``; ``document`` (one file) with ``front_matter``;
``check`` (a whole tree), ``linker`` (question → explanations), ``editor`` (validate and write a
draft). On the database: ``models``, ``sync`` (files → rows and links), ``lookup``. Web:
``routes``/``forms``. Command line: ``cli``.
"""
