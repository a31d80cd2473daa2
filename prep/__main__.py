"""``python -m prep`` runs the CLI."""
from .cli import main

main()
