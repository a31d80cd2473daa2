"""The login and password-reset limits hold across two real `prep serve` workers sharing Redis,
and neither refuses the owner: a device the owner logged in from is let in whichever worker
serves it, and the owner's reset request is answered, not refused."""
from __future__ import annotations

import pytest

from tests.support.live import Browser, LiveServer, registration_link
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
           "PREP_REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
           "PREP_SECRET_KEY": "one key for both workers, as a deployment sets it"}
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


def _mails(servers, kind: str) -> int:
    return sum(len(list((s.root / "instance" / "outbox").glob(f"*{kind}*.eml"))) for s in servers)


def test_limits_hold_whichever_worker_serves(two_servers):
    one, two = two_servers
    email = "victim@example.com"
    # The owner registers on one worker: the link's page sets the password and logs in (a known device).
    owner = Browser(one.url)
    assert owner.post("/register", {"email": email, "csrf_token": owner.token(owner.get("/register"))}) == 200
    link = "/register/confirm/" + registration_link(one.root / "instance" / "outbox", email).rsplit("/", 1)[1]
    assert owner.post(link, {"password": PASSWORD, "confirm": PASSWORD,
                             "csrf_token": owner.token(owner.get(link))}) == 200
    assert owner.post("/logout", {"csrf_token": owner.token(owner.get("/logout"))}) == 200
    # Login: 5 failures per client per 15 minutes, alternating workers; the 6th is refused on either.
    statuses = [_post(two_servers[n % 2], "/login", {"email": email, "password": "wrong password!"})
                for n in range(5)]
    assert statuses == [400] * 5
    assert _post(one, "/login", {"email": email, "password": "wrong password!"}) == 429
    assert _post(two, "/login", {"email": email, "password": PASSWORD}) == 429  # that client, even the right password
    # The owner's device (the same cookies, the other worker) is not refused.
    owner.base = two.url
    assert owner.post("/login", {"email": email, "password": PASSWORD,
                                 "csrf_token": owner.token(owner.get("/login"))}) == 200
    assert "<h1>Today</h1>" in owner.get("/dashboard")
    # Password reset: 3 mails per address, alternating workers; the 4th request is answered, not refused.
    statuses = [_post(two_servers[n % 2], "/password/forgot", {"email": email}) for n in range(4)]
    assert statuses == [200] * 4  # redirected to the login page
    assert _mails(two_servers, "password-reset") == 3
