"""The HTTP load client, run as its own process: ``python -m bench.load < spec.json > result.json``.

Each of N threads is one browser: its own keep-alive connection to 127.0.0.1 and its own
session cookie. It logs in through the real login form (CSRF token from the page), reads the
CSRF token from the /drill page, then runs the phases in lock-step with the other threads:

* ``floor``: GET the trivial endpoint (no database), the ceiling of Flask + the server;
* ``next``: GET /drill (the next-card page, as a browser loads it);
* ``rate``: POST /drill/rate for the user's own cards with the version each was shown at
  (the client keeps the versions, as the page would), expecting the 302 back to /drill;
* ``batch``: GET /drill/batch.json?n=5 (the prefetching drill's card batch); a 404 on the first
  request marks the phase ``missing`` (an app without the endpoint) and ends it;
* ``loop``: the drill loop (page, batch JSON when it exists, rating) in an open loop: requests
  start on a fixed schedule at ``fraction`` of the capacity the earlier phases measured, whether
  or not earlier ones have finished, and latency counts from the scheduled start (queueing included).

The client runs on the same cores as the server, so each phase also reports the client's own CPU
per request (``client_cpu_ms_per_request``) and the loop how late its threads sent requests after
their scheduled time (``send_lag_*``: time the client itself lost, counted in the loop's latency).

Every phase is bounded by a duration and a request count; only loopback URLs are accepted.
"""
from __future__ import annotations

import http.client
import json
import random
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

CSRF_RE = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"')
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class LoadError(RuntimeError):
    pass


def _clock_ticks() -> int:
    import os

    return os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of the given processes (from /proc), 0 for any that is gone."""
    total = 0.0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / _clock_ticks()
    return total


@dataclass
class Browser:
    host: str
    port: int
    email: str
    password: str
    cards: list[list[int]]
    cookies: dict[str, str] = field(default_factory=dict)
    csrf: str = ""
    conn: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        return self.conn

    def request(self, method: str, path: str, form: dict[str, Any] | None = None) -> tuple[int, str, bytes]:
        headers = {"Host": f"{self.host}:{self.port}", "Connection": "keep-alive"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            conn = self._connect()
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            conn.close()
            self.conn = None
        return response.status, response.getheader("Location", ""), data

    def token(self, html: bytes) -> str:
        match = CSRF_RE.search(html.decode("utf-8", "replace"))
        if not match:
            raise LoadError(f"{self.email}: no CSRF token in the page")
        return match.group(1) or match.group(2)

    def login(self) -> None:
        status, _, page = self.request("GET", "/login")
        if status != 200:
            raise LoadError(f"GET /login: {status}")
        status, location, _ = self.request("POST", "/login", {
            "csrf_token": self.token(page), "email": self.email, "password": self.password})
        if status != 302:
            raise LoadError(f"{self.email}: login answered {status}, not a redirect")
        status, _, page = self.request("GET", "/drill")
        if status != 200:
            raise LoadError(f"{self.email}: /drill after login answered {status}")
        self.csrf = self.token(page)


def _percentile(sorted_values: list[float], q: float) -> float | None:
    if not sorted_values:
        return None
    index = min(len(sorted_values) - 1, max(0, int(round(q * (len(sorted_values) - 1)))))
    return sorted_values[index]


def run(spec: dict[str, Any]) -> dict[str, Any]:
    url = urlsplit(spec["url"])
    if url.hostname not in LOOPBACK:
        raise LoadError("the load client only talks to loopback addresses")
    users = spec["users"]
    clients = int(spec.get("clients", 8))
    if len(users) < clients:
        raise LoadError(f"need {clients} users, got {len(users)}")
    browsers = [Browser(url.hostname, url.port or 80, u["email"], spec["password"], u["cards"])
                for u in users[:clients]]
    login_started = time.perf_counter()
    for b in browsers:
        b.login()
    login_s = time.perf_counter() - login_started
    server_pids = list(spec.get("server_pids", []))
    rng = random.Random(spec.get("seed", 1))
    results: dict[str, Any] = {"login_s": login_s, "clients": clients, "phases": {}}

    for phase in spec["phases"]:
        name, kind = phase["name"], phase["kind"]
        seconds, max_requests = float(phase["seconds"]), int(phase["max_requests"])
        per_client = max(1, max_requests // clients)
        latencies: list[list[float]] = [[] for _ in browsers]
        errors: list[list[str]] = [[] for _ in browsers]
        barrier = threading.Barrier(clients + 1)
        state = {"deadline": 0.0}
        missing: list[int] = []
        plan: list[tuple[float, str]] = []
        loop_sink: dict[str, list[float]] = {"next": [], "batch": [], "rate": []}
        send_lags: list[float] = []
        if kind == "loop":
            plan = loop_plan(results["phases"], float(phase.get("fraction", 0.5)), seconds, max_requests)

        def worker(i: int) -> None:
            b = browsers[i]
            local = random.Random(rng.random() + i)
            mine = latencies[i]
            barrier.wait()
            deadline = state["deadline"]
            position = local.randrange(len(b.cards)) if b.cards else 0
            if kind == "loop":
                _open_loop(b, i, clients, plan, local, started_at=deadline - seconds, sink=loop_sink, errors=errors[i],
                           lags=send_lags)
                return
            while len(mine) < per_client and time.perf_counter() < deadline and not missing:
                if kind == "floor":
                    request = ("GET", phase["path"], None, 200)
                else:
                    request, position = _drill_request(b, kind, local, position)
                started = time.perf_counter()
                outcome = _send(b, kind, request, errors[i])
                if outcome == "missing":
                    missing.append(i)
                elif outcome:
                    mine.append(time.perf_counter() - started)

        threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(clients)]
        for t in threads:
            t.start()
        cpu_before, client_before = cpu_seconds(server_pids), time.process_time()
        started = time.perf_counter()
        state["deadline"] = started + seconds
        barrier.wait()
        for t in threads:
            t.join(seconds + 60)
        wall = time.perf_counter() - started
        cpu_used = cpu_seconds(server_pids) - cpu_before
        client_cpu = time.process_time() - client_before
        flat = sorted(x for chunk in latencies for x in chunk)
        all_errors = [e for chunk in errors for e in chunk]
        if kind == "loop":
            results["phases"][name] = _loop_result(plan, loop_sink, all_errors, wall, cpu_used, seconds)
            results["phases"][name].update(_client_figures(client_cpu, results["phases"][name]["requests"], send_lags))
            continue
        results["phases"][name] = {"missing": bool(missing),
            "kind": kind, "requests": len(flat), "errors": len(all_errors), "error_samples": all_errors[:5],
            "wall_s": round(wall, 3), "rps": round(len(flat) / wall, 1) if wall else None,
            "p50_ms": _ms(_percentile(flat, 0.50)), "p95_ms": _ms(_percentile(flat, 0.95)),
            "p99_ms": _ms(_percentile(flat, 0.99)), "max_ms": _ms(flat[-1] if flat else None),
            "mean_ms": _ms(sum(flat) / len(flat) if flat else None),
            "server_cpu_ms_per_request": round(1000 * cpu_used / len(flat), 3) if flat else None,
            **_client_figures(client_cpu, len(flat), None),
        }
    results["ratings_sent"] = sum(ph.get("ratings", ph["requests"] if ph["kind"] == "rate" else 0)
                                  for ph in results["phases"].values())
    return results


def _drill_request(b: Browser, kind: str, local: random.Random, position: int) -> tuple[tuple, int]:
    """(method, path, form, expected status) of one drill request, and the next card position."""
    if kind == "next":
        return ("GET", "/drill", None, 200), position
    if kind == "batch":
        return ("GET", "/drill/batch.json?n=5", None, 200), position
    card = b.cards[position % len(b.cards)]
    form = {"csrf_token": b.csrf, "card_id": card[0], "version": card[1],
            "rating": local.choices((1, 2, 3, 4), (0.12, 0.13, 0.65, 0.10))[0],
            "duration_ms": local.randint(2000, 30000)}
    return ("POST", "/drill/rate", form, 302, card), position + 1


def _send(b: Browser, kind: str, request: tuple, errors: list[str]) -> bool | str:
    """Send one request; True when it answered as expected, "missing" for a batch endpoint's 404."""
    method, path, form, expect = request[:4]
    try:
        status, location, _ = b.request(method, path, form)
    except (OSError, http.client.HTTPException) as err:
        errors.append(f"{type(err).__name__}: {err}")
        return False
    if kind == "batch" and status == 404:
        return "missing"
    if status != expect or (kind == "rate" and "/drill" not in location):
        errors.append(f"{method} {path}: {status} {location}")
        return False
    if kind == "rate":
        request[4][1] += 1  # the rating was taken: the card's version moved on
    return True


def loop_plan(phases: dict[str, Any], fraction: float, seconds: float, max_requests: int) -> list[tuple[float, str]]:
    """The open loop's schedule: (offset in s, kind) for page, batch JSON (when it exists) and rating
    in turn, at ``fraction`` of the loop's capacity. Capacity: one of each, each at the throughput
    its closed-loop phase measured, takes sum(1 / rps) seconds of the server."""
    kinds = [k for k in ("next", "batch", "rate") if phases.get(k, {}).get("rps") and not phases[k].get("missing")]
    if not kinds:
        return []
    cycle = sum(1.0 / phases[k]["rps"] for k in kinds)  # server seconds per loop of one of each
    rate = fraction * len(kinds) / cycle  # requests per second
    count = min(max_requests, int(rate * seconds))
    return [(n / rate, kinds[n % len(kinds)]) for n in range(count)]


def _open_loop(b: Browser, i: int, clients: int, plan: list[tuple[float, str]], local: random.Random, *,
               started_at: float, sink: dict[str, list[float]], errors: list[str], lags: list[float]) -> None:
    """Client ``i`` sends every ``clients``-th request of the plan at its time (or at once when it
    is late: its own earlier request is still running); latency counts from the scheduled time.
    ``lags`` gets how late each request was sent after its time (sleep overshoot, the client's own
    threads, or the client's earlier request still running)."""
    position = local.randrange(len(b.cards)) if b.cards else 0
    for offset, kind in plan[i::clients]:
        due = started_at + offset
        wait = due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        request, position = _drill_request(b, kind, local, position)
        lags.append(max(0.0, time.perf_counter() - due))
        if _send(b, kind, request, errors) is True:
            sink[kind].append(time.perf_counter() - due)


def _loop_result(plan: list[tuple[float, str]], sink: dict[str, list[float]], errors: list[str], wall: float,
                 cpu_used: float, seconds: float) -> dict[str, Any]:
    done = sum(len(v) for v in sink.values())
    out: dict[str, Any] = {"kind": "loop", "requests": done, "ratings": len(sink["rate"]), "errors": len(errors),
                           "error_samples": errors[:5], "wall_s": round(wall, 3),
                           "target_rps": round(len(plan) / seconds, 1) if plan else None,
                           "rps": round(done / wall, 1) if wall else None,
                           "server_cpu_ms_per_request": round(1000 * cpu_used / done, 3) if done else None}
    for kind, values in sink.items():
        flat = sorted(values)
        out[kind] = {"requests": len(flat), "p50_ms": _ms(_percentile(flat, 0.50)),
                     "p95_ms": _ms(_percentile(flat, 0.95)), "p99_ms": _ms(_percentile(flat, 0.99)),
                     "max_ms": _ms(flat[-1] if flat else None)}
    return out


def _client_figures(client_cpu: float, requests: int, lags: list[float] | None) -> dict[str, Any]:
    """The load client's own CPU per request and, for the open loop, its send lag."""
    out: dict[str, Any] = {"client_cpu_ms_per_request": round(1000 * client_cpu / requests, 3) if requests else None}
    if lags is not None:
        flat = sorted(lags)
        out.update({"send_lag_p50_ms": _ms(_percentile(flat, 0.50)), "send_lag_p99_ms": _ms(_percentile(flat, 0.99))})
    return out


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


def main() -> None:
    spec = json.load(sys.stdin)
    json.dump(run(spec), sys.stdout)


if __name__ == "__main__":
    main()
