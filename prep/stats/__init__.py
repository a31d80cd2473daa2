"""Statistics: the candidate's charts, leeches, and instructors' per-question difficulty.

``compute`` (the maths, pure), ``queries`` (the aggregates, SQL), ``simulate`` (a synthetic
learner through the real scheduler, pure) and ``rows`` (writing a simulation as card rows),
``routes`` (the pages)."""
