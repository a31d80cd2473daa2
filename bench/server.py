"""The real server under test: ``prep serve`` in a subprocess on 127.0.0.1, and its memory."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from prep.config import REPO_ROOT

FLOOR_PATHS = ("/healthz", "/static/css/app.css")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_supports_workers() -> bool:
    """True once the lead's ``prep serve --workers N`` (gunicorn) mode exists."""
    out = subprocess.run([sys.executable, "-m", "prep", "serve", "--help"], capture_output=True, text=True,
                         cwd=REPO_ROOT, env={**os.environ, "PREP_SCHEDULER": "0"}, timeout=120)
    return "--workers" in out.stdout


def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it (gunicorn workers are children of the master)."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                children = Path(f"/proc/{current}/task/{task}/children").read_text().split()
                todo.extend(int(c) for c in children)
        except OSError:
            continue
    return out


def status_kb(pid: int, field: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


class Server:
    def __init__(self, database_url: str, instance_dir: Path, *, threads: int | None = None, workers: int | None = None,
                 log_path: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.threads, self.workers = threads, workers
        self.log_path = log_path
        self.env = {**os.environ, "PREP_DATABASE_URL": database_url, "PREP_INSTANCE_DIR": str(instance_dir),
                    "PREP_SECRET_KEY": "bench-secret-key", "PREP_SCHEDULER": "0",
                    "PREP_BASE_URL": self.url, "PYTHONUNBUFFERED": "1"}
        self.proc: subprocess.Popen[bytes] | None = None
        self.floor_path = FLOOR_PATHS[0]

    @property
    def mode(self) -> str:
        threads = f" --threads {self.threads}" if self.threads else ""
        return (f"gunicorn --workers {self.workers}" if self.workers else "waitress") + threads

    def command(self) -> list[str]:
        cmd = [sys.executable, "-m", "prep", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        threads = ["--threads", str(self.threads)] if self.threads else []  # None: prep serve's default
        return cmd + (["--workers", str(self.workers)] if self.workers else []) + threads

    def start(self, timeout: float = 90) -> None:
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(self.command(), env=self.env, cwd=REPO_ROOT, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text(errors='replace')[-3000:]}")
            try:
                urllib.request.urlopen(self.url + "/login", timeout=2).read()
                break
            except (OSError, urllib.error.HTTPError):
                time.sleep(0.2)
        else:
            raise RuntimeError("server did not start")
        self.floor_path = self._pick_floor()

    def _pick_floor(self) -> str:
        """``/healthz`` (no database) when the app has it, else a static file."""
        try:
            with urllib.request.urlopen(self.url + FLOOR_PATHS[0], timeout=5) as r:
                if r.status == 200:
                    return FLOOR_PATHS[0]
        except (OSError, urllib.error.HTTPError):
            pass
        return FLOOR_PATHS[1]

    def pids(self) -> list[int]:
        return descendants(self.proc.pid) if self.proc else []

    def worker_pids(self) -> list[int]:
        """The processes that serve requests: the workers under a gunicorn master, else the server."""
        pids = self.pids()
        return pids[1:] if self.workers and len(pids) > 1 else pids[:1]

    def peak_rss_mb(self) -> float | None:
        """The largest peak resident set (VmHWM) among the serving processes."""
        peaks = [status_kb(pid, "VmHWM") for pid in self.worker_pids()]
        peaks = [p for p in peaks if p is not None]
        return round(max(peaks) / 1024, 1) if peaks else None

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if getattr(self, "log", None):
            self.log.close()
