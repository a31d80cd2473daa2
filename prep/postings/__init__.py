"""Job postings: decode what users bring and extract interview questions and skills (pure code).

The engine (:mod:`prep.postings.extract`, :mod:`prep.postings.decode`) imports no Flask and no
database; routes, models and CLI commands live in their own modules of this package.
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
