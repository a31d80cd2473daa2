"""The login and password-reset limits hold across two real `prep serve` workers sharing Redis."""
from __future__ import annotations

import pytest

from tests.support.live import Browser, LiveServer
from tests.support.app import PASSWORD

REDIS_DB = 13  # flushed before and after


def _redis():
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(f"redis://127.0.0.1:6379/{REDIS_DB}", socket_timeout=2)
    try:
        client.ping()
    except redis.exceptions.RedisError:
        pytest.skip("Redis does not answer on 127.0.0.1:6379")
    return client


@pytest.fixture
def two_servers(tmp_path):
    redis = _redis()
    redis.flushdb()
    env = {"PREP_DATABASE_URL": f"sqlite:///{tmp_path / 'shared.sqlite3'}",
           "PREP_REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}"}
    servers = []
    for name in ("one", "two"):
        root = tmp_path / name
        root.mkdir()
        servers.append(LiveServer(root, env={**env, "PREP_CONTENT_DIR": str(root / "no-content")}))
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.stop()
        redis.flushdb()


def _post(server, path: str, data: dict) -> int:
    b = Browser(server.url)
    token = b.token(b.get(path))
    return b.post(path, {**data, "csrf_token": token})


def test_limits_hold_whichever_worker_serves(two_servers):
    one, two = two_servers
    email = "victim@example.com"
    assert _post(one, "/register", {"email": email, "password": PASSWORD, "confirm": PASSWORD}) == 200
    # Login: 5 failures per account per 15 minutes, alternating workers; the 6th is refused on either.
    statuses = [_post(two_servers[n % 2], "/login", {"email": email, "password": "wrong password!"})
                for n in range(5)]
    assert statuses == [400] * 5
    assert _post(one, "/login", {"email": email, "password": "wrong password!"}) == 429
    assert _post(two, "/login", {"email": email, "password": PASSWORD}) == 429  # even the right password
    # Password reset: 3 requests per account, alternating workers; the 4th is refused on either.
    statuses = [_post(two_servers[n % 2], "/password/forgot", {"email": email}) for n in range(3)]
    assert statuses == [200] * 3  # redirected to the login page with the same message
    assert _post(two, "/password/forgot", {"email": email}) == 429
    assert _post(one, "/password/forgot", {"email": email}) == 429
