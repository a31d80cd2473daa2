"""A user's data out and back in: JSON and CSV exports (``dump``), an Anki deck (``anki``), JSON
import (``restore``), a consistent database backup (``backup``, ``prep backup``), and the pages."""
