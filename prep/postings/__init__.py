"""Job postings and interview reports: what users bring in, the questions and skills extracted
from them, the bank those questions join, readiness for an interview, and the pages and commands.

The engine imports no Flask and no database: ``decode`` (bytes and HTML to text, with
``htmltext``), ``extract`` (the pipeline and its result) and its stages ``headings``, ``rounds``,
``segment``, ``reports``, ``interview_questions``, ``asking``, ``prose``, ``identity``, ``names``;
``merge`` (duplicates), ``likely`` (likely questions), ``readiness``, ``evaluate`` (scoring on a
labelled corpus). The database side: ``models``, ``importing`` (store a posting), ``bank`` (the
shared bank), ``service`` (look-ups, study, likely questions). Web: ``routes``/``forms``.
Command line: ``cli``.
"""
from .decode import MAX_FILE_BYTES, MAX_POSTING_CHARS, decode_posting_bytes, decode_posting_text, read_posting_file
from .errors import PostingError, PostingInputError
from .extract import ExtractionResult, Question, extract_posting

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_POSTING_CHARS",
    "ExtractionResult",
    "PostingError",
    "PostingInputError",
    "Question",
    "decode_posting_bytes",
    "decode_posting_text",
    "extract_posting",
    "read_posting_file",
]
