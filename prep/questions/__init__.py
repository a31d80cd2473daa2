"""Questions: the question bank, one ``normalize_question`` used everywhere, and the pages to
browse and add questions.
"""
