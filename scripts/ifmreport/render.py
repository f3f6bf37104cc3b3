# SPDX-License-Identifier: GPL-2.0
"""Rendering blocks (blocks.py describes them) to report.md and to a
self-contained report.html (figures embedded as data URIs)."""

import base64
import html
from pathlib import Path


def md_cell(text):
    return str(text).replace("|", "\\|")


def pick_file(base, formats):
    for fmt in formats:
        path = Path(f"{base}.{fmt}")
        if path.is_file():
            return path
    return None


def render_md(blocks, rdir, formats):
    out = []
    for b in blocks:
        kind = b[0]
        if kind in ("h1", "h2", "h3"):
            out.append("#" * int(kind[1]) + " " + b[1])
        elif kind == "p":
            out.append(b[1])
        elif kind == "ul":
            out.append("\n".join(f"- {i}" for i in b[1]))
        elif kind == "links":
            out.append("\n".join(f"- [{t}]({h})" for t, h in b[1]))
        elif kind == "table":
            out.append("\n".join(["| " + " | ".join(md_cell(c) for c in row) + " |"
                                  for row in [b[1], ["---"] * len(b[1])] + b[2]]))
        elif kind == "fig":
            path = pick_file(b[1].base, formats)
            if path:
                out.append(f"![{b[1].caption}]({path.relative_to(rdir).as_posix()})\n\n*{b[1].caption}*")
        elif kind == "figrow":
            # side by side: a table of one row
            cells = []
            for fig in b[1]:
                path = fig and pick_file(fig.base, formats)
                cells.append((md_cell(fig.caption), f"![{md_cell(fig.caption)}]"
                              f"({path.relative_to(rdir).as_posix()})") if path
                             else ("", "(none)"))
            if any(c[0] for c in cells):
                out.append("\n".join(["| " + " | ".join(c[0] for c in cells) + " |",
                                      "|" + "---|" * len(cells),
                                      "| " + " | ".join(c[1] for c in cells) + " |"]))
    return "\n\n".join(out) + "\n"


def html_figure(fig, formats, collapsed):
    png = Path(f"{fig.base}.png")
    svg = Path(f"{fig.base}.svg")
    esc = html.escape(fig.caption)
    if "png" in formats and png.is_file():
        data = base64.b64encode(png.read_bytes()).decode("ascii")
        body = f'<img alt="{esc}" src="data:image/png;base64,{data}">'
    elif "svg" in formats and svg.is_file():
        # A data URI rather than inline: gnuplot's SVGs reuse element ids.
        data = base64.b64encode(svg.read_bytes()).decode("ascii")
        body = f'<img alt="{esc}" src="data:image/svg+xml;base64,{data}">'
    else:
        return ""
    inner = f"<figure>{body}<figcaption>{esc}</figcaption></figure>"
    return f"<details><summary>{esc}</summary>{inner}</details>" if collapsed else inner


HTML_STYLE = """body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right}
td:nth-child(-n+3),th{text-align:left}th{background:#eee}figure{margin:1em 0}
img,svg{max-width:100%;height:auto}figcaption{font-size:90%;color:#555}
.row{display:grid;grid-template-columns:1fr 1fr;gap:1em}"""


def render_html(blocks, formats):
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>iowait-freqmon experiment report</title>",
           f"<style>{HTML_STYLE}</style></head><body>"]
    for b in blocks:
        kind = b[0]
        if kind in ("h1", "h2", "h3", "p"):
            out.append(f"<{kind}>{html.escape(b[1])}</{kind}>")
        elif kind == "ul":
            out.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in b[1]) + "</ul>")
        elif kind == "links":
            out.append("<ul>" + "".join(f'<li><a href="{html.escape(h)}">{html.escape(t)}</a></li>'
                                        for t, h in b[1]) + "</ul>")
        elif kind == "table":
            head = "".join(f"<th>{html.escape(c)}</th>" for c in b[1])
            rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>"
                           for row in b[2])
            out.append(f"<table><tr>{head}</tr>{rows}</table>")
        elif kind == "fig":
            out.append(html_figure(b[1], formats, b[2]))
        elif kind == "figrow":
            out.append('<div class="row">' + "".join(
                html_figure(f, formats, False) if f else "<figure></figure>" for f in b[1])
                + "</div>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
