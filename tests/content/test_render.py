"""Markdown rendering: golden fixtures, XSS safety (checked with a real HTML parser), fuzzing,
the render cache, and the static assets the rendered HTML relies on."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prep.content.highlight import highlight_code, highlight_css
from prep.content.markdown_rules import heading_slug
from prep.content.render import RENDERER_VERSION, Rendered, TocEntry, render_markdown
from prep.content.render_cache import RenderCache, render_key
from prep.content.safe_urls import is_safe_url

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parents[1] / "data" / "render"
EXISTING = {"ring-allreduce", "rdma-vs-tcp"}
GOLDEN_CASES = sorted(p.stem for p in GOLDEN.glob("*.md"))


def _render(text: str) -> Rendered:
    return render_markdown(text, slug_exists=EXISTING.__contains__)


# --------------------------------------------------------------------------- golden files


@pytest.mark.parametrize("name", GOLDEN_CASES)
def test_golden(name: str) -> None:
    """``<name>.md`` renders to ``<name>.html``; PREP_REGEN_GOLDEN=1 rewrites the expected files."""
    source = (GOLDEN / f"{name}.md").read_text(encoding="utf-8")
    expected_path = GOLDEN / f"{name}.html"
    html = _render(source).html
    if os.environ.get("PREP_REGEN_GOLDEN"):
        expected_path.write_text(html, encoding="utf-8")
    assert html == expected_path.read_text(encoding="utf-8")


def test_golden_cases_cover_every_feature() -> None:
    assert set(GOLDEN_CASES) >= {
        "table", "code", "math", "admonition", "footnote", "anchors", "crosslink", "links",
    }


def test_toc_from_h2_and_h3_with_unique_cjk_safe_anchors() -> None:
    rendered = _render((GOLDEN / "anchors.md").read_text(encoding="utf-8"))
    assert rendered.toc == [
        TocEntry(2, "two-phases", "Two phases"),
        TocEntry(3, "reduce-scatter", "Reduce-scatter"),
        TocEntry(3, "all-gather", "All-gather"),
        TocEntry(2, "两个阶段规约与收集", "两个阶段：规约与收集"),
        TocEntry(2, "two-phases-1", "Two phases"),
        TocEntry(2, "nccl-algo-and-friends", "NCCL_ALGO and friends!"),
    ]
    ids = [tag["id"] for tag in BeautifulSoup(rendered.html, "html.parser").select("[id]")]
    assert len(ids) == len(set(ids))


def test_cross_links_and_missing_links_are_recorded() -> None:
    rendered = _render((GOLDEN / "crosslink.md").read_text(encoding="utf-8"))
    assert rendered.cross_links == {"ring-allreduce", "rdma-vs-tcp", "no-such-page"}
    assert rendered.missing_links == {"no-such-page"}
    soup = BeautifulSoup(rendered.html, "html.parser")
    assert [a["href"] for a in soup.select("a.cross-link")] == [
        "/explanations/ring-allreduce", "/explanations/rdma-vs-tcp"]
    assert soup.select_one("span.cross-link.missing").get_text() == "a <b>draft</b>"


def test_cross_links_without_slug_exists_are_all_links_and_use_slug_url() -> None:
    rendered = render_markdown("[[ring-allreduce]] [[x-y|X]]", slug_url=lambda s: f"/e/{s}?v=1&a=b")
    assert rendered.missing_links == set()
    assert 'href="/e/ring-allreduce?v=1&amp;a=b"' in rendered.html


@pytest.mark.parametrize("bad_url", ["javascript:alert(1)", " JavaScript:x", "data:text/html,x"])
def test_a_dangerous_slug_url_is_neutralised(bad_url: str) -> None:
    rendered = render_markdown("[[ring-allreduce]]", slug_url=lambda s: bad_url)
    assert 'href="#"' in rendered.html


def test_failing_callbacks_do_not_raise() -> None:
    def boom(_slug: str) -> bool:
        raise RuntimeError("db down")

    rendered = render_markdown("[[a]]", slug_exists=boom)
    assert rendered.missing_links == {"a"}


@pytest.mark.parametrize("lang", ["", "no-such-language", "python", "c++", "cuda", "bash", "PYTHON", "a\"b"])
def test_fenced_code_never_raises(lang: str) -> None:
    html = render_markdown(f"```{lang}\nx = '<y>'\n```\n").html
    assert html.startswith('<div class="highlight"><pre>')
    assert "<y>" not in html


def test_highlight_code_unknown_language_is_escaped_plain_text() -> None:
    assert highlight_code("<b>&</b>", "klingon") == (
        '<div class="highlight"><pre><span></span>&lt;b&gt;&amp;&lt;/b&gt;</pre></div>\n')


def test_lexers_are_looked_up_once_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    from prep.content import highlight

    calls: list[str] = []
    real = highlight.get_lexer_by_name

    def counting(name: str, **options):
        calls.append(name)
        return real(name, **options)

    monkeypatch.setattr(highlight, "get_lexer_by_name", counting)
    highlight._lexer.cache_clear()
    highlight._remembered.cache_clear()  # a remembered fence would look no lexer up
    first = [highlight_code(f"x = {i}  # <{i}>\n", "python") for i in range(5)]
    unknown = [highlight_code("<b>", "klingon") for _ in range(3)]
    assert calls == ["python", "klingon"]
    assert first[3] == highlight_code("x = 3  # <3>\n", "python") and "&lt;3&gt;" in first[3]
    assert first[0] != first[1] and 'class="n"' in first[0]  # still highlighted, each fence its own
    assert unknown[0] == '<div class="highlight"><pre><span></span>&lt;b&gt;</pre></div>\n'
    highlight._lexer.cache_clear()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Two phases", "two-phases"), ("两个阶段：规约", "两个阶段规约"), ("C++ & CUDA!", "c-cuda"),
     ("!!!", "section"), ("ＮＣＣＬ　全角", "nccl-全角")],
)
def test_heading_slug(text: str, expected: str) -> None:
    assert heading_slug(text) == expected


# --------------------------------------------------------------------------- safety

XSS_PAYLOADS = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
    '<img src=x onerror="alert(1)">',
    "<svg onload=alert(1)><circle r=1 /></svg>",
    "<svg><script>alert(1)</script></svg>",
    '<iframe src="javascript:alert(1)"></iframe>',
    "<a href=\"javascript:alert(1)\">x</a>",
    "<div style=\"background:url(javascript:alert(1))\">x</div>",
    "<body onload=alert(1)>",
    "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](  javascript:alert(1) )",
    "[click](java\tscript:alert(1))",
    "[click](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;:alert(1))",
    "[click](&#x6A;avascript:alert(1))",
    "[click](javascript&colon;alert(1))",
    "[click](vbscript:msgbox(1))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[click](file:///etc/passwd)",
    "![x](javascript:alert(1))",
    "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "![x\" onerror=\"alert(1)](x.png)",
    "[x](https://ok.example \"t\\\" onmouseover=\\\"alert(1)\")",
    "<javascript:alert(1)>",
    "[ref][r]\n\n[r]: javascript:alert(1)",
    "[[x\" onmouseover=\"alert(1)]]",
    "[[ring-allreduce|<img src=x onerror=alert(1)>]]",
    "!!! note \"<script>alert(1)</script>\"\n    body",
    "!!! x\" onclick=\"alert(1) \"t\"\n    body",
    "```\"><script>alert(1)</script>\ncode\n```",
    "```js onload=alert(1)\nalert(1)\n```",
    "$<script>alert(1)</script>$",
    "$$\n</div><script>alert(1)</script>\n$$",
    "# <script>alert(1)</script>",
    "| a |\n|---|\n| <img src=x onerror=alert(1)> |",
    "[^1]\n\n[^1]: <script>alert(1)</script>",
    "<scr<script>ipt>alert(1)</script>",
    "<<script>script>alert(1)<</script>/script>",
    "<!-- --><script>alert(1)</script>",
    "<![CDATA[<script>alert(1)</script>]]>",
    "<style>body{background:red}</style>",
    "<a href='x' onclick='alert(1)'",
    "<img src=x onerror=alert(1)//",
    "[a](<javascript:alert(1)>)",
    "*[a](javascript:alert(1))*",
]

_BAD_SCHEMES = ("javascript", "vbscript", "data", "file")
_URL_ATTRS = ("href", "src", "action", "formaction", "xlink:href", "srcset", "poster")


def assert_safe_html(html: str) -> None:
    """No script/style/iframe/svg element, no on* or style attribute, no dangerous URL."""
    soup = BeautifulSoup(html, "html.parser")
    forbidden = {"script", "style", "iframe", "object", "embed", "svg", "math", "form", "base",
                 "link", "meta", "body", "html"}
    for tag in soup.find_all(True):
        assert tag.name not in forbidden, f"<{tag.name}> in {html!r}"
        for name, value in tag.attrs.items():
            assert not name.lower().startswith("on"), f"{name}= on <{tag.name}> in {html!r}"
            assert name.lower() != "style", f"style= on <{tag.name}> in {html!r}"
            if name.lower() in _URL_ATTRS:
                url = re.sub(r"[\x00-\x20\x7f]", "", str(value)).lower()
                scheme = url.split(":", 1)[0] if re.match(r"^[a-z][a-z0-9+.\-]*:", url) else ""
                if tag.name == "img" and scheme == "data":
                    assert re.match(r"data:image/(png|gif|jpeg|webp)[;,]", url), html
                else:
                    assert scheme not in _BAD_SCHEMES, f"{name}={value!r} in {html!r}"


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_xss_payloads_are_neutralised(payload: str) -> None:
    html = render_markdown(payload, slug_exists=lambda s: True).html
    assert_safe_html(html)
    assert "<script" not in html.lower()


def test_external_links_get_rel_nofollow_noopener() -> None:
    soup = BeautifulSoup(_render((GOLDEN / "links.md").read_text()).html, "html.parser")
    rels = {a.get_text(): a.get("rel") for a in soup.find_all("a")}
    assert rels["external"] == ["nofollow", "noopener"]
    assert rels["proto-relative"] == ["nofollow", "noopener"]
    assert rels["relative"] is None and rels["mail"] is None and rels["anchor"] is None
    assert "js" not in rels and "data" not in rels and "ftp" not in rels


@pytest.mark.parametrize(
    ("url", "image", "ok"),
    [("https://x.example", False, True), ("/a/b", False, True), ("#frag", False, True),
     ("mailto:a@b.c", False, True), ("javascript:x", False, False), ("JAVASCRIPT:x", False, False),
     ("java\nscript:x", False, False), ("vbscript:x", False, False), ("data:image/png;base64,AA", False, False),
     ("data:image/png;base64,AA", True, True), ("data:image/webp,AA", True, True),
     ("data:image/svg+xml,<svg>", True, False), ("data:text/html,x", True, False),
     ("ftp://x", False, False), ("tel:123", False, False), ("&#106;avascript:x", False, False)],
)
def test_is_safe_url(url: str, image: bool, ok: bool) -> None:
    assert is_safe_url(url, image=image) is ok


def test_html_in_front_matter_is_plain_text_in_parsed_fields() -> None:
    from prep.content.document import parse_document

    parsed = parse_document('---\ntitle: "<script>alert(1)</script>"\ntags: ["<b>x</b>"]\n---\nBody\n',
                            "x.md")
    assert parsed.doc is not None
    assert parsed.doc.title == "<script>alert(1)</script>"  # stored as text, escaped by templates
    assert_safe_html(render_markdown(f"# {parsed.doc.title}\n").html)


def test_non_string_input_does_not_raise() -> None:
    assert render_markdown(None).html == ""  # type: ignore[arg-type]


_FRAGMENTS = st.sampled_from([
    "<script>", "</script>", "<img src=x onerror=alert(1)>", "javascript:", "[", "]", "(", ")",
    "[[", "]]", "|", "$", "$$", "\n", "\n\n", "```", "~~~", "    ", "!!! note", "!!! ", "\"", "'",
    "[^1]", "[^1]: ", "#", "## ", "|---|", "*", "_", "`", "<", ">", "&", "&#", ";", "\\", "data:",
    "vbscript:", "<svg onload=alert(1)>", "on", "=", "![", "http://", "\t", "\r", "\x00", "\u2028",
    "环形", "ＮＣＣＬ", "a", "1.", "- ", "> ",
])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300), st.lists(_FRAGMENTS, max_size=40).map("".join)))
def test_rendering_never_raises_and_never_emits_script(text: str) -> None:
    """Hypothesis: 400 examples of arbitrary text and Markdown/HTML fragment soup."""
    rendered = render_markdown(text, slug_exists=lambda s: len(s) % 2 == 0)
    assert isinstance(rendered.html, str)
    assert "<script" not in rendered.html.lower()
    assert_safe_html(rendered.html)


# --------------------------------------------------------------------------- cache


def test_render_cache_does_not_rerender_unchanged_text(monkeypatch: pytest.MonkeyPatch) -> None:
    import prep.content.render_cache as render_module

    calls: list[str] = []
    real = render_module.render_markdown

    def counting(text: str, **kwargs: object) -> Rendered:
        calls.append(text)
        return real(text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(render_module, "render_markdown", counting)
    cache = RenderCache(maxsize=2)
    first = cache.render("# A")
    assert cache.render("# A") is first
    assert calls == ["# A"] and cache.hits == 1 and cache.misses == 1
    cache.render("# B")
    cache.render("# C")  # evicts "# A", the least recently used
    assert render_key("# A") not in cache and len(cache) == 2
    cache.render("# A", context="slugs-v2")
    assert calls == ["# A", "# B", "# C", "# A"]
    cache.clear()
    assert len(cache) == 0


def test_render_key_is_sha256_of_version_context_and_text() -> None:
    key = render_key("text")
    assert re.fullmatch(r"[0-9a-f]{64}", key)
    assert key != render_key("text", "ctx") and key != render_key("text ")
    assert RENDERER_VERSION


# --------------------------------------------------------------------------- static assets


def test_pygments_css_has_light_and_dark_themes_scoped_to_highlight() -> None:
    css = (ROOT / "static" / "css" / "pygments.css").read_text(encoding="utf-8")
    assert css == highlight_css(), "regenerate: prep content highlight-css > static/css/pygments.css"
    assert "@media (prefers-color-scheme: dark)" in css and '[data-theme="dark"] .highlight' in css
    selectors = [line.split("{")[0].strip() for line in css.splitlines() if "{" in line and "@media" not in line]
    assert selectors and all(".highlight" in s for s in selectors)


def test_katex_is_vendored_and_recorded_in_package_json() -> None:
    katex = ROOT / "static" / "vendor" / "katex"
    for name in ("katex.min.js", "katex.min.css", "auto-render.min.js"):
        assert (katex / name).stat().st_size > 1000, name
    assert list((katex / "fonts").glob("KaTeX_Main-Regular.woff2"))
    version = json.loads((ROOT / "package.json").read_text())["dependencies"]["katex"]
    assert f"version:\"{version}\"" in (katex / "katex.min.js").read_text(encoding="utf-8").replace(" ", "") \
        or version in (katex / "katex.min.js").read_text(encoding="utf-8")


def test_math_js_typesets_explanation_bodies_with_the_server_delimiters() -> None:
    js = (ROOT / "static" / "js" / "math.js").read_text(encoding="utf-8")
    assert "renderMathInElement" in js and ".explanation-body" in js
    assert 'left: "\\\\("' in js and 'left: "\\\\["' in js
