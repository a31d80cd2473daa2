"""Fitting FSRS parameters to one user's own review history (fsrs-rs-python)."""
