"""Everything a student wrote is data: the Markdown, HTML and outputs of a
submission are made inert before any page shows them.

A submitted notebook is shown to the instructor in nbgrader's formgrader
(inside their logged-in Jupyter session: a script there could read and write
the whole course through ``/api/contents``), to the instructor and the
student in the feedback page, and in JupyterLab when the instructor opens the
file.  This module is the one place that decides what of a student's markup
survives; the grader calls it at three points:

* :func:`sanitize_tree` rewrites the notebooks ``nbgrader zip_collect`` put
  under ``submitted/`` (``grade.py``, right after collecting), and
  :class:`SanitizeSubmission` (an nbgrader preprocessor of ``autograde``)
  does the same for the copy under ``autograded/`` that the formgrader and
  the feedback are made from, after the sandbox has run it;
* :func:`markdown2html` and :func:`clean_html` replace nbconvert's Jinja
  filters of the same names in every HTML page nbgrader renders (the
  formgrader's view of a submission and the feedback pages), and
  :class:`SanitizeSubmission` runs again as an exporter preprocessor there,
  so a notebook stored before this module existed is shown inert too;
* :class:`FeedbackHTMLExporter` writes the feedback pages with a
  Content-Security-Policy that allows no script at all, and without
  nbgrader's MathJax (loaded from a CDN: a request from every page).

What survives:

* **Markdown** keeps its Markdown (emphasis, lists, tables, code, math,
  ``http(s)``/``mailto`` links) but no HTML: every ``<`` that could open a
  tag is written ``&lt;``, so ``<script>...</script>`` is *shown* as text
  (inside ``$...$`` math it becomes ``< `` instead, which TeX reads the same);
  a link to anything but ``http(s):``, ``mailto:``, ``#`` or a relative path
  goes to ``#``;
  an image is kept only as an embedded PNG/JPEG/GIF (``data:`` or a cell
  attachment), any other becomes the text ``[image not shown: ...]`` (a
  remote image is a request that tells its server who opened the page).
  The result is then rendered with nbconvert's own Markdown renderer and
  checked (:func:`active_content`); if anything active is left (the two
  parsers disagree about some corner of Markdown), the whole cell is shown
  as a code block of text instead.
* **Raw cells** (nbconvert pastes them into the page as HTML) become
  Markdown cells showing their text in a code block.
* **Outputs** keep plain text, tracebacks, PNG/JPEG/GIF images with valid
  base64, Markdown (as above) and HTML cleaned by ``nh3`` (the Ammonia
  sanitizer) with an allow-list of text, list, table and image tags: no
  script, event handler, ``style``, ``iframe``, ``form``, ``object``,
  ``embed``, ``svg``, ``meta``, ``base`` or ``link`` element, no URL but
  ``http(s)``/``mailto``/``#`` in a link and none but an embedded image in
  an image.  JavaScript, SVG, LaTeX, widget and every other output type is
  dropped.
* **Metadata**: a cell keeps only nbgrader's metadata (well-formed) and its
  tags (plain words); the notebook keeps only its kernelspec (name, display
  name, language: the student's when it is plain text, e.g. conda's
  ``Python [conda env:aukbook]``, else the course's ``python3``, so that it
  is never left without the ``display_name`` the format requires) and its
  language's name.  Execution counts are non-negative integers or none.
  What is written stays a valid notebook (format 4.5: every cell has a
  unique id, a cell only the keys of its type).
"""

import base64
import binascii
import html
import re
import uuid
from html.parser import HTMLParser

import nh3

# --- the allow-list -----------------------------------------------------------------

TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup",
    "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5",
    "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "samp",
    "small", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "tt", "u", "ul", "var", "wbr",
}
# removed with everything inside them (the others lose the tag, keep the text)
DROP_WITH_CONTENT = {
    "script", "style", "template", "noscript", "iframe", "frame", "frameset", "object",
    "embed", "applet", "svg", "math", "textarea", "select", "title", "xmp", "noembed",
    "noframes", "plaintext", "audio", "video", "canvas", "head", "meta", "link", "base",
}
ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "td": {"align", "colspan", "rowspan"},
    "th": {"align", "colspan", "rowspan", "scope"},
    "ol": {"start"},
    "table": {"border"},
    "abbr": {"title"},
}


def _pygments_classes():
    try:
        from pygments.token import STANDARD_TYPES
        return set(STANDARD_TYPES.values()) - {""}
    except ImportError:                       # pragma: no cover - nbconvert needs pygments
        return set()


CLASSES = {                                   # what nbconvert's Markdown rendering uses
    "div": {"highlight"},
    "span": _pygments_classes(),
    "a": {"anchor-link"},
    "table": {"dataframe"},
}
LINK_SCHEMES = ("http://", "https://", "mailto:", "#")
_RELATIVE = re.compile(r"[^:/?#]*(?:[/?#].*)?", re.S)   # a path with no scheme
IMAGE_MIME = ("image/png", "image/jpeg", "image/gif")
_DATA_IMAGE = re.compile(r"data:image/(?:png|jpeg|gif);base64,[A-Za-z0-9+/]+={0,2}")
_INVISIBLE = re.compile(r"[\x00-\x20\x7f]+")   # what browsers drop from a URL's scheme
CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
       "font-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")


def _url(value):
    return _INVISIBLE.sub("", html.unescape(html.unescape(value or "")))


def safe_link(value):
    """Whether ``value`` may be a link's target: http(s), mailto, a #fragment or
    a relative path (``ch02_roc_auc.ipynb``); a link is followed only when
    clicked.  Not ``javascript:``, ``data:``, ``vbscript:`` or any other scheme."""
    url = _url(value)
    return url.lower().startswith(LINK_SCHEMES) or bool(_RELATIVE.fullmatch(url))


def safe_image(value):
    """Whether ``value`` may be an image's source: an embedded PNG, JPEG or GIF
    (anything else is a request, to a server that learns who opened the page)."""
    return bool(_DATA_IMAGE.fullmatch(_url(value)))


def _attribute_filter(tag, attr, value):
    if attr == "href":
        return value if safe_link(value) else None
    if attr == "src":
        return value if safe_image(value) else None
    if attr in ("width", "height", "colspan", "rowspan", "start", "border"):
        return value if re.fullmatch(r"\d{1,5}%?", value.strip()) else None
    return value


def clean_html(text):
    """HTML from a submission, cleaned by nh3 (Ammonia) with this module's
    allow-list (nbconvert's ``clean_html`` filter is replaced by this)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if not isinstance(text, str):
        text = str(text)
    return nh3.clean(text, tags=TAGS, clean_content_tags=DROP_WITH_CONTENT,
                     attributes=ATTRIBUTES, attribute_filter=_attribute_filter,
                     url_schemes={"http", "https", "mailto", "data"},
                     allowed_classes=CLASSES, strip_comments=True,
                     link_rel="noopener noreferrer nofollow")


# --- an independent check: is anything active left? ----------------------------------

_URL_ATTRS = {"href", "src", "srcset", "action", "formaction", "xlink:href", "poster",
              "background", "data", "cite", "longdesc", "ping", "manifest", "codebase",
              "lowsrc", "dynsrc", "usemap", "icon", "archive", "profile", "content"}


class _Finder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = []

    def handle_starttag(self, tag, attrs):
        ok_input = tag == "input" and dict(attrs).get("type") == "checkbox"  # task lists
        if tag not in TAGS and not ok_input:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") or name in ("style", "is", "srcdoc", "http-equiv"):
                self.found.append(f"<{tag} {name}=...>")
            elif name == "href" and not safe_link(value):
                self.found.append(f"<{tag} href={value[:40]!r}>")
            elif name == "src" and not safe_image(value):
                self.found.append(f"<{tag} src={value[:40]!r}>")
            elif name in _URL_ATTRS - {"href", "src"}:
                self.found.append(f"<{tag} {name}=...>")

    handle_startendtag = handle_starttag


def active_content(text):
    """What in the HTML ``text`` could run, fetch or submit: tags outside the
    allow-list, event handlers, styles, and URLs other than safe links and
    embedded images (an empty list when there is nothing)."""
    finder = _Finder()
    finder.feed(text)
    finder.close()
    return finder.found


# --- Markdown ---------------------------------------------------------------------

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
_MATH = re.compile(r"\$\$.+?\$\$|\\\[.+?\\\]|\\\(.+?\\\)|\$[^$\n]+?\$"
                   r"|\\begin\{([a-zA-Z*]+)\}.*?\\end\{\1\}", re.S)
# what Markdown passes through as HTML: a tag name then a space, ">", "/" or the line's
# end (an HTML block needs no more), a closing tag, a comment, a declaration or an
# instruction (CommonMark 0.31, 4.6 and 6.6); "<j}" in math or "x <y" are text already
_TAG_OPEN = re.compile(r"<(?=/?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)|[!?])")
_AUTOLINK = re.compile(r"<(?:https?://|mailto:)[^\s<>]*>", re.I)
_MATH_MACRO = re.compile(r"\\(href|url|require|class|cssId|style|unicode|html|data|"
                         r"toggle|texttip|mathtip|action|bbox)\b")
_IMAGE = re.compile(r"!\[((?:[^\[\]\n]|\\[\[\]])*)\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)"
                    r"[^\s()]*)*)((?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*)\)")
_LINK = re.compile(r"(\]\(\s*)(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)")
_REFDEF = re.compile(r"^([ ]{0,3}\[[^\]\n]+\]:[ \t]*\n?[ \t]*)(<[^>\n]*>|\S+)", re.M)


def _odd_backslashes(text, i):
    n = 0
    while i - n - 1 >= 0 and text[i - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def _escape_tags(text, math):
    out, last = [], 0
    autolinks = [m.span() for m in _AUTOLINK.finditer(text)]
    for m in _TAG_OPEN.finditer(text):
        i = m.start()
        if _odd_backslashes(text, i) or any(a <= i < b for a, b in autolinks):
            continue
        out.append(text[last:i])
        out.append("< " if math else "&lt;")
        last = i + 1
    out.append(text[last:])
    return "".join(out)


def _dest(value):
    return value[1:-1] if value.startswith("<") and value.endswith(">") else value


def _prose(text):
    """Escape the tags and neutralise the links of Markdown text that holds no code."""
    pieces, last = [], 0
    for m in _MATH.finditer(text):
        pieces.append(_escape_tags(text[last:m.start()], False))
        pieces.append(_MATH_MACRO.sub(r"\\backslash \1", _escape_tags(m.group(0), True)))
        last = m.end()
    pieces.append(_escape_tags(text[last:], False))
    text = "".join(pieces)

    def image(m):
        if safe_image(_dest(m.group(2))) or _dest(m.group(2)).startswith("attachment:"):
            return m.group(0)
        alt = m.group(1).replace("[", "").replace("]", "")
        return f"\\[image not shown: {alt}\\]"

    text = _IMAGE.sub(image, text)
    refs = {" ".join(m.group(1).lower().split()): _dest(m.group(2))
            for m in re.finditer(r"^[ ]{0,3}\[([^\]\n]+)\]:[ \t]*\n?[ \t]*(<[^>\n]*>|\S+)",
                                 text, re.M)}

    def ref_image(m):                     # ![alt][ref], ![alt][] and ![alt]
        label = " ".join((m.group(2) or m.group(1)).lower().split())
        url = refs.get(label)
        if url is None or safe_image(url) or url.startswith("attachment:"):
            return m.group(0)
        return f"\\[image not shown: {m.group(1)}\\]"

    text = re.sub(r"!\[([^\[\]\n]*)\](?:\[([^\[\]\n]*)\])?(?![(\[:])", ref_image, text)
    text = _LINK.sub(lambda m: m.group(0) if _kept(m.group(2)) else m.group(1) + "#", text)
    return _REFDEF.sub(lambda m: m.group(0) if _kept(m.group(2)) else m.group(1) + "#", text)


def _kept(dest):
    dest = _dest(dest)
    return safe_link(dest) or safe_image(dest) or dest.startswith("attachment:")


def _neutralise(source):
    lines = source.split("\n")
    out, prose, fence = [], [], None

    def flush():
        if prose:
            text = "\n".join(prose)
            parts, last = [], 0
            for m in _CODE_SPAN.finditer(text):
                parts.append(_prose(text[last:m.start()]))
                parts.append(m.group(0))
                last = m.end()
            parts.append(_prose(text[last:]))
            out.append("".join(parts))
            prose.clear()

    for line in lines:
        m = _FENCE.match(line)
        if fence is None:
            if m:
                flush()
                fence = m.group(1)
                out.append(line)
            else:
                prose.append(line)
        else:
            out.append(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip()[len(m.group(1)):].strip():
                fence = None
    flush()
    return "\n".join(out)


def as_text(source, why="it holds markup the grader does not show"):
    """Markdown that shows ``source`` as it is, in a code block of text."""
    runs = [len(r) for r in re.findall(r"`+", source)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return f"*Shown as text: {why}.*\n\n{fence}text\n{source}\n{fence}\n"


def render_markdown(source, attachments=None, path=""):
    """Markdown to HTML as nbconvert renders a cell for the formgrader and the
    feedback (mistune, with math)."""
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
    renderer = IPythonRenderer(escape=False, attachments=attachments or {},
                               embed_images=False, path=path, anchor_link_text="¶",
                               exclude_anchor_links=False)
    return MarkdownWithMath(renderer=renderer).render(source)


def sanitize_markdown(source, attachments=None):
    """The student's Markdown, with its HTML shown as text and its links and
    images neutralised; checked by rendering it (see the module's docstring)."""
    if isinstance(source, list):
        source = "".join(str(s) for s in source)
    source = str(source)
    out = _neutralise(source)
    try:
        left = active_content(render_markdown(out, attachments))
    except Exception:                         # a renderer's failure is no licence
        left = ["the renderer failed"]
    return as_text(source) if left else out


# --- notebooks ------------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z0-9_\-]{1,64}")
_NBGRADER = {"grade": bool, "solution": bool, "locked": bool, "task": bool,
             "points": (int, float), "grade_id": str, "schema_version": int,
             "checksum": str, "cell_type": str,
             # what nbgrader's GetGrades adds for the feedback page (the instructor's
             # comment is Markdown, rendered by markdown2html below)
             "score": (int, float), "comment": str}


def _b64(value):
    if isinstance(value, list):
        value = "".join(str(v) for v in value)
    if not isinstance(value, str):
        return None
    compact = re.sub(r"\s+", "", value)
    if not re.fullmatch(r"[A-Za-z0-9+/]*={0,2}", compact) or not compact:
        return None
    try:
        base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        return None
    return compact


def _text(value, limit=None):
    if isinstance(value, list):
        value = "".join(str(v) for v in value)
    value = value if isinstance(value, str) else str(value)
    return value[:limit] if limit else value


def safe_attachments(attachments):
    """A cell's attachments that are embedded PNG, JPEG or GIF images."""
    out = {}
    if not isinstance(attachments, dict):
        return out
    for name, bundle in attachments.items():
        if not (isinstance(name, str) and re.fullmatch(r"[\w.\- ]{1,100}", name)
                and isinstance(bundle, dict)):
            continue
        data = {k: _b64(v) for k, v in bundle.items() if k in IMAGE_MIME}
        data = {k: v for k, v in data.items() if v}
        if data:
            out[name] = data
    return out


def _safe_cell_metadata(md):
    out = {}
    if not isinstance(md, dict):
        return out
    nbg = md.get("nbgrader")
    if isinstance(nbg, dict) and isinstance(nbg.get("grade_id", ""), str) and \
            (nbg.get("grade_id") is None or _WORD.fullmatch(nbg["grade_id"])):
        out["nbgrader"] = {k: v for k, v in nbg.items() if k in _NBGRADER and
                           isinstance(v, _NBGRADER[k]) and
                           (k != "checksum" or re.fullmatch(r"[0-9a-f]{1,128}", v)) and
                           (k != "cell_type" or v in ("code", "markdown"))}
    tags = md.get("tags")
    if isinstance(tags, list):
        tags = [t for t in tags if isinstance(t, str) and _WORD.fullmatch(t)]
        if tags:
            out["tags"] = tags
    for key in ("deletable", "editable", "collapsed", "scrolled"):
        if isinstance(md.get(key), bool):
            out[key] = md[key]
    jup = md.get("jupyter")
    if isinstance(jup, dict):
        jup = {k: v for k, v in jup.items()
               if k in ("source_hidden", "outputs_hidden") and isinstance(v, bool)}
        if jup:
            out["jupyter"] = jup
    return out


def sanitize_outputs(outputs):
    """A code cell's outputs with only the inert kinds kept (see the module's docstring)."""
    import nbformat
    out = []
    for o in outputs if isinstance(outputs, list) else []:
        if not isinstance(o, dict):
            continue
        kind = o.get("output_type")
        if kind == "stream":
            out.append(nbformat.v4.new_output(
                "stream", name="stderr" if o.get("name") == "stderr" else "stdout",
                text=_text(o.get("text", ""), 1_000_000)))
        elif kind in ("display_data", "execute_result") and isinstance(o.get("data"), dict):
            data, meta = {}, {}
            for mime, value in o["data"].items():
                if mime == "text/plain":
                    data[mime] = _text(value, 1_000_000)
                elif mime in IMAGE_MIME and _b64(value):
                    data[mime] = _b64(value)
                    m = o.get("metadata", {}).get(mime) if isinstance(
                        o.get("metadata"), dict) else None
                    if isinstance(m, dict):
                        size = {k: m[k] for k in ("width", "height")
                                if isinstance(m.get(k), int) and 0 < m[k] < 100_000}
                        if size:
                            meta[mime] = size
                elif mime == "text/html":
                    data[mime] = clean_html(_text(value, 4_000_000))
                elif mime == "text/markdown":
                    data[mime] = sanitize_markdown(_text(value, 1_000_000))
            if not data:
                continue
            if kind == "execute_result":
                count = o.get("execution_count")
                out.append(nbformat.v4.new_output(
                    "execute_result", data=data, metadata=meta,
                    execution_count=count if type(count) is int else None))
            else:
                out.append(nbformat.v4.new_output("display_data", data=data, metadata=meta))
        elif kind == "error":
            tb = o.get("traceback")
            out.append(nbformat.v4.new_output(
                "error", ename=_text(o.get("ename", ""), 200),
                evalue=_text(o.get("evalue", ""), 4000),
                traceback=[_text(t, 4000) for t in tb[:200]] if isinstance(tb, list) else []))
    return out


# the kernel the grader runs every notebook with (runner.py: kernel_name="python3")
COURSE_KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                     "language": "python"}
_KERNEL_NAME = re.compile(r"[A-Za-z0-9._\-]{1,64}")        # Jupyter's kernel names
# a display name is plain text: conda's "Python [conda env:aukbook]" and VS Code's
# "Python 3.11 ('aukbook': venv)" are, "<b>", "&lt;" or a quote mark are not
_KERNEL_TEXT = re.compile(r"[\w .,+\-()\[\]:'@/=#]{1,100}")
_CELL_KEYS = {"code": ("cell_type", "id", "metadata", "source", "outputs",
                       "execution_count"),
              "markdown": ("cell_type", "id", "metadata", "source", "attachments")}


def safe_kernelspec(ks):
    """The notebook's kernelspec as kept: the student's own when it is valid
    (a ``name`` and a ``display_name``) and plain text, else the course's
    (:data:`COURSE_KERNELSPEC`); never one the notebook format rejects (a
    kernelspec without ``display_name`` made nbgrader refuse the notebook).
    The grader runs its own kernel whatever the notebook names."""
    if not (isinstance(ks, dict) and isinstance(ks.get("name"), str)
            and isinstance(ks.get("display_name"), str)
            and _KERNEL_NAME.fullmatch(ks["name"])
            and _KERNEL_TEXT.fullmatch(ks["display_name"])
            and _KERNEL_TEXT.fullmatch(ks["display_name"].strip())
            and isinstance(ks.get("language", ""), str)):
        return dict(COURSE_KERNELSPEC)
    out = {"name": ks["name"], "display_name": ks["display_name"]}
    if isinstance(ks.get("language"), str) and _WORD.fullmatch(ks["language"]):
        out["language"] = ks["language"]
    return out


class NotebookUnusable(ValueError):
    """A notebook the sanitizer cannot make valid without guessing what the
    student meant (e.g. a cell without a ``cell_type``): it is set aside, not
    graded (``grade.py``), never rewritten into something that could change a
    mark."""


def unrepairable(nb):
    """What in ``nb`` cannot be repaired without guessing (a cell with no
    ``cell_type``: code or text?), or None."""
    cells = nb.get("cells") if isinstance(nb, dict) else None
    for i, cell in enumerate(cells if isinstance(cells, list) else []):
        if isinstance(cell, dict) and not isinstance(cell.get("cell_type"), str):
            return (f"cell {i} has no cell_type (code or text cannot be told, so it "
                    "cannot be repaired without guessing)")
    return None


def sanitize_notebook(nb):
    """Make the notebook ``nb`` (an nbformat NotebookNode, version 4) inert, in
    place; returns what was changed, one line a change.  What the format
    requires and a student's file may lack is repaired where no grade can
    depend on it (a code cell without ``outputs`` gets none, a stream output
    without ``text`` an empty one, an output without ``output_type`` is
    dropped); a cell without ``cell_type`` cannot be, and raises
    :class:`NotebookUnusable` before anything is changed."""
    import nbformat
    problem = unrepairable(nb)
    if problem:
        raise NotebookUnusable(problem)
    changes = []
    cells = nb.get("cells") if isinstance(nb.get("cells"), list) else []
    if any(not isinstance(c, dict) for c in cells):
        changes.append("entries of the cell list that are not cells dropped")
        cells[:] = [c for c in cells if isinstance(c, dict)]
    nb["cells"] = cells
    ids = set()
    for i, cell in enumerate(cells):
        kind = cell.get("cell_type")
        md = _safe_cell_metadata(cell.get("metadata"))
        # (other metadata, e.g. the release's own "execution" or "mystnb", goes quietly)
        if md.get("nbgrader") != (cell.get("metadata") or {}).get("nbgrader") or \
                md.get("tags") != (cell.get("metadata") or {}).get("tags"):
            changes.append(f"cell {i}: nbgrader metadata or tags trimmed")
        cell["metadata"] = nbformat.from_dict(md)
        # every cell has a unique id of the notebook format 4.5 (nbformat_minor is
        # raised to 5 below: an older notebook gets ids, which 4.4 would forbid)
        if not (isinstance(cell.get("id"), str) and _WORD.fullmatch(cell["id"])) or \
                cell["id"] in ids:
            cell["id"] = uuid.uuid4().hex[:8]
            while cell["id"] in ids:
                cell["id"] = uuid.uuid4().hex[:8]
        ids.add(cell["id"])
        if kind == "markdown":
            old = _text(cell.get("source", ""))
            attachments = safe_attachments(cell.get("attachments"))
            new = sanitize_markdown(old, attachments)
            if new != old:
                changes.append(f"cell {i}: Markdown "
                               + ("shown as text" if new.startswith("*Shown as text")
                                  else "markup shown as text or neutralised"))
            cell["source"] = new
            if attachments:
                cell["attachments"] = nbformat.from_dict(attachments)
            else:
                cell.pop("attachments", None)
        elif kind == "code":
            cell["source"] = _text(cell.get("source", ""))
            if not isinstance(cell.get("outputs"), list):
                changes.append(f"cell {i}: a code cell without outputs given none (repaired)")
            elif any(isinstance(o, dict) and o.get("output_type") == "stream"
                     and not isinstance(o.get("text"), (str, list)) for o in cell["outputs"]):
                changes.append(f"cell {i}: a stream output without text given an empty "
                               "one (repaired)")
            outputs = sanitize_outputs(cell.get("outputs"))
            if len(outputs) != len(cell.get("outputs") or []) or any(
                    set(a.get("data", {})) != set(b.get("data", {}))
                    for a, b in zip(outputs, cell.get("outputs") or [])
                    if isinstance(b, dict)):
                changes.append(f"cell {i}: outputs other than text and images dropped")
            cell["outputs"] = outputs
            count = cell.get("execution_count")
            cell["execution_count"] = count if type(count) is int and count >= 0 else None
        else:                                 # raw (pasted into the page as HTML) or unknown
            source = _text(cell.get("source", ""))
            new = nbformat.v4.new_markdown_cell(
                as_text(source, "a raw cell") if source.strip() else "", id=cell["id"])
            new["metadata"] = cell["metadata"]
            cells[i] = new
            changes.append(f"cell {i}: {kind} cell shown as text")
        # only the keys the format allows a cell of its type (an unknown key, or
        # attachments on a code cell, would make the notebook invalid)
        allowed = _CELL_KEYS.get(cells[i].get("cell_type"), ())
        for key in [k for k in cells[i] if k not in allowed]:
            del cells[i][key]
    meta = nb.get("metadata") if isinstance(nb.get("metadata"), dict) else {}
    keep = {}
    ks = meta.get("kernelspec")
    if ks is not None:
        kernel = safe_kernelspec(ks)
        if kernel == COURSE_KERNELSPEC and ks != COURSE_KERNELSPEC:
            changes.append("kernelspec replaced with the course's own (python3)")
        elif kernel != ks:
            changes.append("kernelspec trimmed to its name, display name and language")
        keep["kernelspec"] = kernel
    li = meta.get("language_info")
    if isinstance(li, dict) and isinstance(li.get("name"), str) and _WORD.fullmatch(li["name"]):
        keep["language_info"] = {"name": li["name"]}
    if set(meta) - {"kernelspec", "language_info"}:
        changes.append("notebook metadata trimmed: "
                       + ", ".join(sorted(set(meta) - {"kernelspec", "language_info"}))[:200])
    minor = nb.get("nbformat_minor")
    if type(minor) is not int or not 5 <= minor <= nbformat.v4.nbformat_minor:
        nb["nbformat_minor"] = nbformat.v4.nbformat_minor
    nb["nbformat"] = 4
    for key in [k for k in nb if k not in ("nbformat", "nbformat_minor", "metadata",
                                           "cells")]:
        del nb[key]
    nb["metadata"] = nbformat.from_dict(keep)
    return changes


def sanitize_file(path):
    """Rewrite the notebook at ``path`` inert; returns the changes.  A file that
    is not a notebook is left alone (nbgrader reports it when it reads it).
    Raises :class:`NotebookUnusable` (the file left as it is) for a notebook
    that cannot be repaired without guessing."""
    import json
    import nbformat
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception:
        return []
    # compared as plain JSON: nbformat.writes would validate, and fail on the
    # very defects sanitize_notebook repairs (a code cell without outputs ...)
    before = json.dumps(nb, sort_keys=True, default=str)
    changes = sanitize_notebook(nb)
    if json.dumps(nb, sort_keys=True, default=str) != before:
        nbformat.write(nb, path)
    return changes


def sanitize_tree(root, unusable=None):
    """Every ``*.ipynb`` under ``root`` (e.g. ``submitted/``) made inert; returns
    {path: changes} of the notebooks that changed.  A notebook that cannot be
    made inert, whatever the reason, never stops the others: it goes into
    ``unusable`` ({path: what is wrong}), left as it is."""
    import os
    done = {}
    unusable = {} if unusable is None else unusable
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in filenames:
            path = os.path.join(dirpath, name)
            if name.endswith(".ipynb") and not os.path.islink(path):
                try:
                    changes = sanitize_file(path)
                except NotebookUnusable as err:
                    unusable[path] = str(err)
                    continue
                except Exception as err:      # a defect no one foresaw: this file alone
                    unusable[path] = (f"it could not be checked for active markup "
                                      f"({type(err).__name__}: {err})")
                    continue
                if changes:
                    done[path] = changes
    return done


# --- nbgrader and nbconvert -------------------------------------------------------------

try:
    import jinja2
    from nbconvert.exporters import HTMLExporter
    from nbconvert.preprocessors import Preprocessor
    from traitlets import Bool
except ImportError:                           # pragma: no cover - the grading kit has them
    jinja2 = HTMLExporter = Preprocessor = None

if Preprocessor is not None:
    class SanitizeSubmission(Preprocessor):
        """nbconvert/nbgrader preprocessor: :func:`sanitize_notebook`."""

        enabled = Bool(True).tag(config=True)

        def preprocess(self, nb, resources):
            changes = sanitize_notebook(nb)
            if changes:
                info = resources.get("nbgrader", {}) if isinstance(resources, dict) else {}
                self.log.warning("MARKUP %s/%s: %s", info.get("student", "?"),
                                 info.get("assignment", "?"), "; ".join(changes[:20]))
            return nb, resources

    @jinja2.pass_context
    def markdown2html(context, source):
        """nbconvert's ``markdown2html`` filter, with the result cleaned by nh3."""
        cell = context.get("cell", {}) or {}
        attachments = safe_attachments(cell.get("attachments", {}))
        return clean_html(render_markdown(_text(source), attachments))

    _SCRIPT = re.compile(r"<script\b.*?</script\s*>", re.S | re.I)

    class FeedbackHTMLExporter(HTMLExporter):
        """nbgrader's feedback page with a Content-Security-Policy that runs no
        script and loads nothing but embedded images, and without MathJax (the
        page's only script, fetched from a CDN): math is shown as TeX."""

        def from_notebook_node(self, nb, resources=None, **kw):
            output, resources = super().from_notebook_node(nb, resources, **kw)
            return with_csp(output), resources

    def with_csp(page):
        """``page`` without its script elements, with the CSP meta first in its head."""
        page = _SCRIPT.sub("", page)
        meta = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        head = re.search(r"<head[^>]*>", page, re.I)
        if head:
            return page[:head.end()] + "\n" + meta + page[head.end():]
        return meta + page


def sanitize_submitted(course, aid, log=None, unusable=None):
    """Make every notebook nbgrader collected under ``course/submitted/*/aid/``
    inert (``grade.py`` calls it right after ``zip_collect``), so that no copy
    the instructor may open holds a student's active markup; the changes go to
    ``log``.  An untouched locked cell is never changed (the kit's own Markdown
    passes unchanged: ``tests/test_grading_sanitize.py``), so restoring locked
    cells reports nothing new.  A notebook that cannot be made inert goes
    into ``unusable`` ({path: what is wrong}; ``grade.py`` sets it aside):
    one student's file never stops the class."""
    import glob
    import os
    done = {}
    unusable = {} if unusable is None else unusable
    for folder in sorted(glob.glob(os.path.join(course, "submitted", "*", aid))):
        done.update(sanitize_tree(folder, unusable))
    if log is not None:
        for path, changes in done.items():
            log.write(f"[sanitize] {os.path.relpath(path, course)}: {'; '.join(changes[:20])}\n")
        for path, why in unusable.items():
            log.write(f"[sanitize] {os.path.relpath(path, course)}: UNUSABLE: {why}\n")
    return done


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
                      r"\ud800-\udfff]")


def _escaped(ch):
    code = ord(ch)
    if 0xdc80 <= code <= 0xdcff:      # a byte of a file name that is not UTF-8
        return f"\\x{code - 0xdc00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text):
    """``text`` for a terminal or a text report: control characters (a file
    name or a forged status can hold terminal escape sequences, which rewrite
    what the instructor's terminal shows) and bidirectional overrides (which
    reorder what a line seems to say) are written as ``\\xNN``/``\\uNNNN``;
    so is a byte of a file name that is not UTF-8 (Python reads it as a lone
    surrogate, which no UTF-8 file or terminal can take): ``caf\\xe9.txt``."""
    return _CONTROL.sub(lambda m: _escaped(m.group()), str(text))
