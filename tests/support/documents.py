"""PDF and Word files built in the tests: a text's lines as a PDF with a real text layer, the same
lines as a .docx (python-docx writes it), and a PDF whose page holds only an image (a scan).

The PDF is written by hand: a Type0 font whose character ids are the Unicode code points and a
ToUnicode map saying so, which is what lets a reader (pypdf) take Chinese as well as English
text out of it; no glyphs are embedded (nothing here is ever drawn).
"""
from __future__ import annotations

import io
import zlib

LINES_PER_PAGE = 45


def pdf_bytes(text: str) -> bytes:
    """``text`` as a PDF, one text line per line, :data:`LINES_PER_PAGE` lines to a page."""
    lines = [line for line in text.splitlines()]
    pages = [lines[i:i + LINES_PER_PAGE] for i in range(0, max(len(lines), 1), LINES_PER_PAGE)]
    chars = sorted({ord(c) for c in text if 0x20 <= ord(c) <= 0xFFFF} | {0x20})
    contents = []
    for page in pages:
        ops = ["BT", "/F1 10 Tf"]
        for row, line in enumerate(page):
            hexed = "".join(f"{ord(c):04X}" for c in line if 0x20 <= ord(c) <= 0xFFFF)
            ops.append(f"1 0 0 1 36 {800 - 16 * row} Tm <{hexed}> Tj")
        ops.append("ET")
        contents.append("\n".join(ops).encode("ascii"))
    return _assemble(contents, _to_unicode(chars))


def scanned_pdf_bytes() -> bytes:
    """A one-page PDF that draws a small grey image and holds no text: what a scanner makes."""
    pixels = bytes(range(64)) * 64  # a 64x64 greyscale image
    image = (b"<< /Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace /DeviceGray "
             b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % len(zlib.compress(pixels))
             + zlib.compress(pixels) + b"\nendstream")
    content = b"q 500 0 0 700 50 50 cm /Im1 Do Q"
    return _assemble([content], None, image=image)


def docx_bytes(text: str, *, list_items: bool = False) -> bytes:
    """``text`` as a Word document, one paragraph per non-empty line. With ``list_items``, lines
    starting with ``- `` become Word bullet paragraphs (the marker is Word's, not the text's)."""
    from docx import Document

    document = Document()
    for line in text.splitlines():
        if not line.strip():
            continue
        if list_items and line.startswith("- "):
            document.add_paragraph(line[2:], style="List Bullet")
        else:
            document.add_paragraph(line)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _to_unicode(chars: list[int]) -> bytes:
    entries = []
    for start in range(0, len(chars), 100):  # at most 100 entries per bfchar block
        block = chars[start:start + 100]
        entries.append(f"{len(block)} beginbfchar\n" + "\n".join(f"<{c:04X}> <{c:04X}>" for c in block)
                       + "\nendbfchar")
    cmap = ("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
            "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
            + "\n".join(entries) + "\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend")
    return cmap.encode("ascii")


def pdf_with_pages(contents: list[bytes], *, compress: bool = False) -> bytes:
    """A PDF with one page per raw content stream (Flate-compressed with ``compress``): for
    hostile cases (thousands of pages, a page that inflates to megabytes)."""
    return _assemble(contents, _to_unicode([0x20]), compress=compress)


def _stream(data: bytes, compress: bool = False) -> bytes:
    if compress:
        data = zlib.compress(data, 9)
        return b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream"
    return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def _assemble(contents: list[bytes], to_unicode: bytes | None, image: bytes | None = None,
              compress: bool = False) -> bytes:
    """A PDF with one page per content stream; objects numbered in the order written."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]  # 2: the page tree, filled below
    font_ref = image_ref = None
    if to_unicode is not None:
        objects.append(_stream(to_unicode))
        cmap_ref = len(objects)
        objects.append(b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Test /CIDSystemInfo "
                       b"<< /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 "
                       b"/FontDescriptor << /Type /FontDescriptor /FontName /Test /Flags 32 "
                       b"/FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 "
                       b"/CapHeight 700 /StemV 80 >> >>")
        cid_ref = len(objects)
        objects.append(b"<< /Type /Font /Subtype /Type0 /BaseFont /Test /Encoding /Identity-H "
                       b"/DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>" % (cid_ref, cmap_ref))
        font_ref = len(objects)
    if image is not None:
        objects.append(image)
        image_ref = len(objects)
    kids = []
    for content in contents:
        objects.append(_stream(content, compress))
        content_ref = len(objects)
        resources = b"<< "
        if font_ref:
            resources += b"/Font << /F1 %d 0 R >> " % font_ref
        if image_ref:
            resources += b"/XObject << /Im1 %d 0 R >> " % image_ref
        resources += b">>"
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources "
                       + resources + b" /Contents %d 0 R >>" % content_ref)
        kids.append(len(objects))
    objects[1] = (b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids)
                  + b"] /Count %d >>" % len(kids))
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
