"""``prep`` commands for the live-server tests, forked from a process that has already imported the
app instead of started from nothing.

A ``python -m prep …`` process spends most of a second or two importing Flask, SQLAlchemy and every
feature before it does anything; the live-server tests start a server, and run ``prep users
create`` or ``prep postings import``, over a hundred times a run. Here one process per test worker
(multiprocessing's fork server) imports what ``create_app`` imports, once, and each command is a
fork of it: a new process with its own environment, working folder, output files and exit code,
that builds its app from the environment as ``prep`` does. Nothing of the app is built before the
fork (no app, no database connection, no thread), so each command starts from the state a fresh
``prep`` process reaches after its imports.

The entry point itself (``python -m prep``) keeps its own tests (the CLI, crash and worker tests
start it as a real program).
"""
from __future__ import annotations

import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import import_module
from pathlib import Path

import prep
import prep.cli

from . import warm


def preload() -> None:
    """Import what ``create_app`` imports (every feature's wiring and models), without building an app."""
    for name in prep.FEATURES:
        import_module(f"prep.{name}.wiring")
    for name in ("prep.models", "prep.security", "prep.i18n", "prep.errors", "prep.web.bodies",
                 "prep.web.input_guard", "prep.web.json_body", "prep.web.templating", "prep.database"):
        import_module(name)
    # Imported by the app only when first needed: Chinese slugs and company keys (pypinyin reads
    # its dictionaries on import, a third of a second), and e-mail address checks.
    for name in ("pypinyin", "email_validator"):
        import_module(name)


preload()

_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload([__name__])


def _run(argv: list[str], env: dict[str, str], cwd: str, stdout: str, stderr: str, stdin: str | None) -> None:
    """The forked child: become ``prep argv`` in ``cwd`` with ``env``, its output to the files given."""
    written = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    for fds, path, flags in (((0,), stdin or os.devnull, os.O_RDONLY),
                             ((1, 2) if stderr == stdout else (1,), stdout, written),
                             (() if stderr == stdout else (2,), stderr, written)):
        if fds:
            opened = os.open(path, flags, 0o644)
            for fd in fds:
                os.dup2(opened, fd)
            os.close(opened)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    sys.argv = ["prep", *argv]
    warm.share_with_other_forked_processes()
    prep.cli.main(args=argv, prog_name="prep")


class Process:
    """A forked ``prep`` process, with the part of :class:`subprocess.Popen`'s interface the tests use."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, stdout: Path, stderr: Path,
                 stdin: Path | None = None) -> None:
        self.args = ["prep", *argv]
        self._process = _CONTEXT.Process(target=_run, args=(argv, dict(env), str(cwd), str(stdout), str(stderr),
                                                            str(stdin) if stdin else None), daemon=False)
        self._process.start()
        self.pid = self._process.pid

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self._process.exitcode

    def terminate(self) -> None:
        self._process.terminate()

    def kill(self) -> None:
        self._process.kill()


def run(argv: list[str], env: dict[str, str], cwd: Path, input: str | None = None,  # noqa: A002
        timeout: float = 300) -> subprocess.CompletedProcess:
    """``prep argv`` to completion, as ``subprocess.run(…, capture_output=True, text=True, check=True)``."""
    folder = Path(tempfile.mkdtemp(prefix="prep-forked-"))
    stdout, stderr, stdin = folder / "stdout", folder / "stderr", None
    if input is not None:
        stdin = folder / "stdin"
        stdin.write_text(input, encoding="utf-8")
    try:
        process = Process(argv, env, cwd, stdout, stderr, stdin)
        try:
            code = process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
        result = subprocess.CompletedProcess(process.args, code, stdout.read_text(encoding="utf-8"),
                                             stderr.read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    result.check_returncode()
    return result
