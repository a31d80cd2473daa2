"""Drilling: cards (FSRS state per user and question), the review log, the daily queue, rating
and undo, and the dashboard and drill pages.
"""
