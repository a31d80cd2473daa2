"""A corpus of XSS payloads fed through every input that reaches a page (tests/web/test_xss.py and the
browser check tests/web/test_xss_e2e.py). Each one, if it ever ran, would open a dialog
(alert/confirm/prompt) so the browser test notices."""
from __future__ import annotations

PAYLOADS: list[str] = [
    # script tags
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
    "<scr<script>ipt>alert(2)</scr</script>ipt>",
    "<script\x20type=\"text/javascript\">confirm(3)</script>",
    # event handlers
    "<img src=x onerror=alert(4)>",
    "<body onload=alert(5)>",
    "<div onmouseover=\"alert(6)\" style=\"position:fixed;inset:0\">hover</div>",
    "<input autofocus onfocus=alert(7)>",
    "<details open ontoggle=alert(8)>",
    # SVG and MathML
    "<svg onload=alert(9)>",
    "<svg><script>alert(10)</script></svg>",
    "<svg><a xlink:href=\"javascript:alert(11)\"><text x=0 y=20>x</text></a></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(12)>",
    # dangerous URLs, as Markdown and as plain text / HTML
    "[click me](javascript:alert(13))",
    "[click](JaVaScRiPt:alert(14))",
    "[click](  javascript&#58;alert(15))",
    "[vb](vbscript:msgbox(16))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxNyk8L3NjcmlwdD4=)",
    "![img](javascript:alert(18))",
    "<a href=\"javascript:alert(19)\">plain link</a>",
    "<iframe src=\"data:text/html,<script>alert(20)</script>\"></iframe>",
    "<javascript:alert(21)>",
    # broken markup and attribute breakouts
    "\"><script>alert(22)</script>",
    "' onmouseover='alert(23)' x='",
    "\" autofocus onfocus=\"alert(24)",
    "</textarea><script>alert(25)</script>",
    "</title><img src=x onerror=alert(26)>",
    "<<img src=x onerror=alert(27)//",
    "<!--<img src=\"--><img src=x onerror=alert(28)//\">",
    # template injection (Jinja / Angular-like): must show literally, not evaluate
    "{{7*7}} {{ config }} ${7*7} {% raw %}",
    # CJK mixed with markup
    "面试题：<img src=x onerror=alert(31)>通信库",
    "请解释 <script>prompt(32)</script> 的两个阶段",
]

# The dialog-opening calls used above, for the browser test's messages.
DIALOG_CALLS = ("alert", "confirm", "prompt", "msgbox")
