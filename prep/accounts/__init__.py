"""Accounts: users and their study settings, passwords, registration, sessions, password reset,
attempt limits, and the ``users`` CLI commands.
"""
