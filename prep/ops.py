"""Operational endpoints: a liveness check that touches no database (for load balancers)."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("ops", __name__)


@bp.route("/healthz")
def healthz():
    return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}
