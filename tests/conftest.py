"""Registers the shared fixtures; they live in tests/support/ (see its modules), so no test
imports another test module. A test module imports plain helpers from tests.support directly."""
from __future__ import annotations

from tests.support.access import world  # noqa: F401
from tests.support.app import (app, client, csrf_app, database_url, login, make_question,  # noqa: F401
                               make_user, postgres_url, runner)
from tests.support.browser import browser, live_server, page  # noqa: F401
from tests.support.clock import clock  # noqa: F401
from tests.support.content import shipped_content  # noqa: F401
from tests.support.history import rich_user, simulated  # noqa: F401
from tests.support.passwords import cheap_password_hashing  # noqa: F401
from tests.support.reminders import learner, question, smtp  # noqa: F401
