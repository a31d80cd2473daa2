"""Registers the shared fixtures; they live in tests/support/ (see its modules), so no test
imports another test module. A test module imports plain helpers from tests.support directly."""
from __future__ import annotations

import gc
import os
import shutil
import tempfile

from tests.support.access import world  # noqa: F401
from tests.support.app import (app, client, csrf_app, database_url, login, make_question,  # noqa: F401
                               make_user, postgres_url, runner)
from tests.support.browser import browser, instructor_server, live_server, page  # noqa: F401
from tests.support.clock import clock  # noqa: F401
from tests.support.content import shipped_content  # noqa: F401
from tests.support.history import rich_user, simulated  # noqa: F401
from tests.support.passwords import cheap_password_hashing  # noqa: F401
from tests.support.reminders import learner, question, smtp  # noqa: F401
from tests.support.compiled import keep_compiled_code
from tests.support.live import SHARED_FOLDER

keep_compiled_code()

# A test worker holds large caches that live for the whole run (the compiled statements above, the
# content index, every imported module) and makes an app per test. With Python's default thresholds
# the collector went over all of them about every second and a half, a tenth of a worker's time in
# full passes (measured on the drill, accounts and questions tests: 4.3 s of 36 s); a larger young
# generation makes those passes rare. Nothing else changes: the same objects are freed, a little later.
gc.set_threshold(10_000, 10, 10)


def pytest_configure(config):
    """A folder the run's processes share (the workers of a parallel run inherit the variable):
    what one worker made once for every worker, such as a live server's initialised database."""
    if not os.environ.get(SHARED_FOLDER):
        config._prep_shared = tempfile.mkdtemp(prefix="prep-tests-")
        os.environ[SHARED_FOLDER] = config._prep_shared


def pytest_unconfigure(config):
    folder = getattr(config, "_prep_shared", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(SHARED_FOLDER, None)


def pytest_collection_modifyitems(config, items):
    """Long modules go first (``heavy``, then ``browser``), then the others by their number of
    tests, most first, so that the workers of a parallel run (``make test`` hands out a module, or
    a class, at a time, in this order: ``--no-loadscope-reorder``) finish together instead of one
    worker finishing a long module alone at the end."""
    def module(item) -> str:
        return item.nodeid.split("::", 1)[0]

    def rank(item) -> int:
        return 0 if item.get_closest_marker("heavy") else 1 if item.get_closest_marker("browser") else 2

    ranks: dict[str, int] = {}
    sizes: dict[str, int] = {}
    for item in items:
        ranks[module(item)] = min(ranks.get(module(item), 2), rank(item))
        sizes[module(item)] = sizes.get(module(item), 0) + 1
    items.sort(key=lambda item: (ranks[module(item)], -sizes[module(item)]))
