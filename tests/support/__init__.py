"""What the tests share: the app and its fixtures, the frozen clock, factories, page helpers and
live servers. Test modules import from here (never from one another); ``tests/conftest.py``
registers the fixtures."""
