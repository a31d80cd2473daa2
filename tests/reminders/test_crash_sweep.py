"""A crash (SIGKILL) in the middle of a reminder sweep (`prep remind` against a real SMTP server):
the next sweep reminds everyone the killed one did not, and nobody gets two different reminders.
A message that went out just before the kill but was not yet recorded is sent again after the
send lease with the same Message-ID, so mail clients show it once; the test counts those resends."""
from __future__ import annotations

import signal
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

from flask import Flask

from prep.extensions import db
from prep.reminders import timing
from tests.support.reminders import SHANGHAI_9, Recorder, log_rows, remind_process

USERS = 120


def test_killed_sweep_then_rerun_reminds_everyone_once(tmp_path: Path, app: Flask, smtp: Recorder,
                                                       learner) -> None:
    users = [learner() for _ in range(USERS)]
    db.session.commit()
    emails = sorted(u.email for u in users)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    db.session.close()

    proc = remind_process(url, app.config["SMTP_URL"], tmp_path / "killed", SHANGHAI_9)
    deadline = time.monotonic() + 120
    while proc.poll() is None and len(smtp.messages) < 5 and time.monotonic() < deadline:
        time.sleep(0.02)  # the `prep remind` process sends on its own: poll until it is mid-sweep
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    before = len(smtp.messages)
    assert 0 < before < USERS, f"the kill came at {before} of {USERS} messages"

    # The next sweep after the send lease finishes the job.
    restart = SHANGHAI_9 + timing.SEND_LEASE + timedelta(minutes=1)
    rerun = remind_process(url, app.config["SMTP_URL"], tmp_path / "rerun", restart)
    out, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err

    ids_by_recipient: dict[str, set[str]] = {}
    for rcpts, message in smtp.messages:
        for r in rcpts:
            ids_by_recipient.setdefault(r, set()).add(message["Message-ID"])
    assert sorted(ids_by_recipient) == emails  # nobody lost
    assert all(len(ids) == 1 for ids in ids_by_recipient.values())  # one reminder each
    resent = sum(n - 1 for n in Counter(r for rcpts, _ in smtp.messages for r in rcpts).values())
    print(f"\nsweep killed after {before} of {USERS} messages; rerun sent {len(smtp.messages) - before}, "
          f"of which {resent} resends of unrecorded messages (same Message-ID)")
    db.session.expire_all()
    assert {e.status for e in log_rows()} == {"sent"} and len(log_rows()) == USERS
