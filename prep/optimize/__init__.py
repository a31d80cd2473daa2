"""Fitting FSRS parameters to one user's own review history (fsrs-rs-python): the fit and its
judgement on later reviews (``fit``, pure), applying and rolling back a run (``service``,
``models``), and the page."""
