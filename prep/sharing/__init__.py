"""Shared interview reports: a candidate shares an anonymised copy of their report, an instructor
approves it, and every candidate on the instance can read it (the /shared pages)."""
