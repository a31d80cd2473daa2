"""The code in the explanations compiles and runs (手撕 coding pages carry tested code).

A fenced block is tested when its info string is ``cpp``, ``cuda``, ``go`` or ``python`` and its
first line is a marker comment (``# test: run`` in Python):

- ``// test: run``: a whole program; it must exit 0 and check its own results (assert or a
  returned status).
- ``// test: compile``: compile only.

Blocks without a marker are fragments and are not checked.

C++ is built with g++ under AddressSanitizer and UndefinedBehaviorSanitizer (UB is fatal), and a
second time under ThreadSanitizer when the block starts threads; ``run`` blocks are run with a
timeout. CUDA blocks are compiled with ``nvcc -c`` when nvcc is installed and never run (the
test machines have no GPU); without nvcc they are skipped. Go blocks (``package main``, standard
library only) must be gofmt-clean and pass ``go vet``, and ``run`` blocks are run with
``go run -race``, when the go toolchain is installed; without it they are skipped. Python blocks
are run as scripts by the test's own interpreter with ``-X dev -W error`` (``compile`` blocks are
only byte-compiled). Identical code (the English and
Chinese pages carry the same program) is built once per session.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.heavy  # tens of seconds: scheduled first in a parallel run
CONTENT = Path(__file__).resolve().parents[2] / "content"

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^\s`{]*)")
_MARKER_RE = re.compile(r"^\s*//\s*test:\s*(run|compile)\s*$")
_PY_MARKER_RE = re.compile(r"^\s*#\s*test:\s*(run|compile)\s*$")
_THREADS_RE = re.compile(r"\bstd::(?:thread|jthread|async)\b|\bpthread_create\b")

CODE_LANGS = ("cpp", "cuda", "go", "python")
CXX_FLAGS = ["-std=c++17", "-O1", "-g", "-fno-omit-frame-pointer", "-pthread"]
SANITIZERS = {
    "asan+ubsan": ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"],
    "tsan": ["-fsanitize=thread"],
}
NVCC_FLAGS = ["-std=c++17", "-c"]
COMPILE_TIMEOUT = 300
RUN_TIMEOUT = 60


@dataclass(frozen=True)
class Block:
    """One marked code block: where it is, its language, what to do with it, its text."""

    path: str  # relative to the content folder
    line: int  # 1-based line of the opening fence
    lang: str  # "cpp", "cuda", "go" or "python"
    mode: str  # "run" or "compile"
    code: str


def extract_blocks(text: str, path: str = "<text>") -> list[Block]:
    """Every ``cpp``/``cuda``/``go``/``python`` fenced block of ``text`` whose first line is a test marker."""
    blocks: list[Block] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        match = _FENCE_RE.match(lines[i])
        if not match:
            i += 1
            continue
        fence, lang, start = match.group(1), match.group(2).lower(), i
        body: list[str] = []
        i += 1
        while i < len(lines):
            close = _FENCE_RE.match(lines[i])
            if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= len(fence) \
                    and not lines[i].strip()[len(close.group(1)):].strip():
                break
            body.append(lines[i])
            i += 1
        i += 1  # past the closing fence
        if lang in CODE_LANGS and body:
            marker = (_PY_MARKER_RE if lang == "python" else _MARKER_RE).match(body[0])
            if marker:
                blocks.append(Block(path, start + 1, lang, marker.group(1), "\n".join(body) + "\n"))
    return blocks


def _collect() -> list[Block]:
    blocks: list[Block] = []
    for md in sorted(CONTENT.rglob("*.md")):
        rel = md.relative_to(CONTENT).as_posix()
        blocks.extend(extract_blocks(md.read_text(encoding="utf-8"), rel))
    return blocks


BLOCKS = _collect()
_RESULTS: dict[str, tuple[bool, str]] = {}  # sha256 of (build, code) -> (ok, message)


def _run(cmd: list[str], timeout: int, cwd: str) -> tuple[int | None, str]:
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
    env.setdefault("TSAN_OPTIONS", "halt_on_error=1")
    if not env.get("HOME") and not env.get("XDG_CACHE_HOME"):  # go needs a build cache folder
        env.setdefault("GOCACHE", str(Path(tempfile.gettempdir()) / "prep-content-go-cache"))
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s: {' '.join(cmd)}"
    return proc.returncode, (proc.stdout + proc.stderr)[-4000:]


def _check(kind: str, block: Block, build) -> None:
    """Run ``build(workdir) -> (ok, message)`` once per distinct code and fail with the page's name."""
    key = hashlib.sha256(f"{kind}\0{block.mode}\0{block.code}".encode()).hexdigest()
    if key not in _RESULTS:
        with tempfile.TemporaryDirectory(prefix="content-code-") as work:
            _RESULTS[key] = build(work)
    ok, message = _RESULTS[key]
    if not ok:
        pytest.fail(f"{block.path}:{block.line} ({block.lang}, {kind}): {message}", pytrace=False)


def _cpp_build(block: Block, sanitizer: str):
    def build(work: str) -> tuple[bool, str]:
        src = Path(work) / "block.cpp"
        src.write_text(block.code, encoding="utf-8")
        exe = Path(work) / "block"
        cmd = ["g++", *CXX_FLAGS, *SANITIZERS[sanitizer], str(src), "-o", str(exe)]
        if block.mode == "compile":
            cmd = ["g++", *CXX_FLAGS, *SANITIZERS[sanitizer], "-c", str(src), "-o", str(exe) + ".o"]
        rc, out = _run(cmd, COMPILE_TIMEOUT, work)
        if rc != 0:
            return False, f"does not compile:\n{out}"
        if block.mode == "compile":
            return True, ""
        rc, out = _run([str(exe)], RUN_TIMEOUT, work)
        if rc != 0:
            return False, f"exited with status {rc}:\n{out}"
        return True, ""
    return build


def _ids(blocks: list[Block]) -> list[str]:
    return [f"{b.path}:{b.line}" for b in blocks]


CPP = [b for b in BLOCKS if b.lang == "cpp"]
CPP_THREADED = [b for b in CPP if _THREADS_RE.search(b.code)]
CUDA = [b for b in BLOCKS if b.lang == "cuda"]
GO = [b for b in BLOCKS if b.lang == "go"]
PYTHON = [b for b in BLOCKS if b.lang == "python"]


@pytest.mark.parametrize("block", CPP, ids=_ids(CPP))
def test_cpp_block_under_asan_and_ubsan(block: Block) -> None:
    if shutil.which("g++") is None:
        pytest.skip("g++ not found: C++ blocks not compiled")
    _check("asan+ubsan", block, _cpp_build(block, "asan+ubsan"))


@pytest.mark.parametrize("block", CPP_THREADED, ids=_ids(CPP_THREADED))
def test_threaded_cpp_block_under_tsan(block: Block) -> None:
    if shutil.which("g++") is None:
        pytest.skip("g++ not found: C++ blocks not compiled")
    _check("tsan", block, _cpp_build(block, "tsan"))


@pytest.mark.parametrize("block", CUDA, ids=_ids(CUDA))
def test_cuda_block_compiles(block: Block) -> None:
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc not found: CUDA code is compiled only where nvcc is installed; "
                    "this block was extracted and its marker checked, not compiled")

    def build(work: str) -> tuple[bool, str]:
        src = Path(work) / "block.cu"
        src.write_text(block.code, encoding="utf-8")
        rc, out = _run(["nvcc", *NVCC_FLAGS, str(src), "-o", str(Path(work) / "block.o")], COMPILE_TIMEOUT, work)
        return (True, "") if rc == 0 else (False, f"nvcc -c fails:\n{out}")

    _check("nvcc", block, build)


@pytest.mark.parametrize("block", GO, ids=_ids(GO))
def test_go_block_is_formatted_vetted_and_runs(block: Block) -> None:
    if shutil.which("go") is None:
        pytest.skip("go not found: Go blocks are checked only where the go toolchain is installed; "
                    "this block was extracted and its marker checked, not built")

    def build(work: str) -> tuple[bool, str]:
        src = Path(work) / "main.go"
        src.write_text(block.code, encoding="utf-8")
        rc, out = _run(["gofmt", "-l", str(src)], COMPILE_TIMEOUT, work)
        if rc != 0 or out.strip():
            return False, f"not gofmt-clean (run gofmt -w):\n{out}"
        rc, out = _run(["go", "vet", str(src)], COMPILE_TIMEOUT, work)
        if rc != 0:
            return False, f"go vet fails:\n{out}"
        if block.mode == "run":
            rc, out = _run(["go", "run", "-race", str(src)], COMPILE_TIMEOUT, work)
            if rc != 0:
                return False, f"go run -race exited with status {rc}:\n{out}"
        return True, ""

    _check("go", block, build)


@pytest.mark.parametrize("block", PYTHON, ids=_ids(PYTHON))
def test_python_block_runs(block: Block) -> None:
    def build(work: str) -> tuple[bool, str]:
        src = Path(work) / "block.py"
        src.write_text(block.code, encoding="utf-8")
        if block.mode == "compile":
            cmd = [sys.executable, "-m", "py_compile", str(src)]
        else:
            cmd = [sys.executable, "-X", "dev", "-W", "error", str(src)]
        rc, out = _run(cmd, RUN_TIMEOUT, work)
        return (True, "") if rc == 0 else (False, f"python exited with status {rc}:\n{out}")

    _check("python", block, build)


def test_every_coding_page_carries_tested_code() -> None:
    pages = sorted((CONTENT / "coding").glob("*.md"))
    assert pages, "content/coding/ has no pages"
    tested = {b.path for b in BLOCKS}
    untested = [p.relative_to(CONTENT).as_posix() for p in pages
                if p.relative_to(CONTENT).as_posix() not in tested]
    assert untested == []


def test_extract_blocks_takes_only_marked_cpp_and_cuda_blocks() -> None:
    text = "\n".join([
        "intro",
        "```cpp",
        "// test: run",
        "int main() { return 0; }",
        "```",
        "```cpp",
        "int fragment();",
        "```",
        "````cuda",
        "// test: compile",
        "```",
        "__global__ void k() {}",
        "````",
        "```python",
        "// test: run",
        "```",
        "```python",
        "# test: run",
        "assert True",
        "```",
        "```go",
        "// test: run",
        "package main",
        "```",
    ])
    blocks = extract_blocks(text, "x.md")
    assert [(b.line, b.lang, b.mode) for b in blocks] == [(2, "cpp", "run"), (9, "cuda", "compile"),
                                                         (17, "python", "run"), (21, "go", "run")]
    assert blocks[1].code == "// test: compile\n```\n__global__ void k() {}\n"
