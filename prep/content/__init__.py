"""Explanations: Markdown content files, their rendering, checking, and question linking.

Pure domain package (no Flask): ``render`` (Markdown → safe HTML), ``document`` (one file),
``check`` (a whole tree), ``linker`` (question → explanations), ``cli`` (click commands).
"""
