"""A user's data out and back in: JSON and CSV exports, an Anki deck, JSON import, database backup."""
