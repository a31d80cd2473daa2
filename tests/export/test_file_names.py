"""Export files are named by the user's own calendar date: at 20:00 UTC on 5 December it is
already 6 December in Shanghai, and still 5 December in Los Angeles."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

EVENING_UTC = datetime(2026, 12, 5, 20, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(("zone", "day"), [("Asia/Shanghai", "20261206"), ("America/Los_Angeles", "20261205"),
                                           ("UTC", "20261205")])
@pytest.mark.parametrize(("path", "name"), [("/export/prep-export.json", "prep-export-{day}.json"),
                                            ("/export/prep-export.zip", "prep-export-{day}.zip"),
                                            ("/export/prep.apkg", "prep-{day}.apkg")])
def test_an_export_is_named_by_the_users_local_date(client, login, make_user, clock, zone, day, path, name):
    clock.move_to(EVENING_UTC)
    login(make_user(timezone=zone))
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == f'attachment; filename="{name.format(day=day)}"'
