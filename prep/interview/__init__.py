"""Interview mode: predicted recall on an interview day, the plan of reviews that reaches a target
recall on that day within a daily time budget, and its evaluation against a simulated learner.

Pure package: no Flask, no SQLAlchemy; plain dataclasses in, values out, ``now`` passed in.
"""
