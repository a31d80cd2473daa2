"""Statistics: the candidate's charts, leeches, and instructors' per-question difficulty."""
