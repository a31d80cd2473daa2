"""Job postings: decode what users bring and extract interview questions and skills (pure code).

The engine imports no Flask and no database: :mod:`~prep.postings.decode` (bytes and HTML to
text), :mod:`~prep.postings.extract` (the pipeline and its result) and its stages ``headings``,
``rounds``, ``segment``, ``reports``, ``interview_questions``, ``asking`` and ``identity``.
The database side: ``importing`` (store a posting), ``bank`` (the shared bank), ``service``
(look-ups, study, likely questions); routes, models and CLI commands in their own modules.
"""
from .decode import MAX_POSTING_BYTES, decode_posting_bytes, decode_posting_text, read_posting_file
from .errors import PostingError, PostingInputError
from .extract import ExtractionResult, Question, extract_posting

__all__ = [
    "MAX_POSTING_BYTES",
    "ExtractionResult",
    "PostingError",
    "PostingInputError",
    "Question",
    "decode_posting_bytes",
    "decode_posting_text",
    "extract_posting",
    "read_posting_file",
]
