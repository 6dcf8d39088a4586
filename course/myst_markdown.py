"""Turn the book's MyST Markdown into plain Markdown that stock Jupyter renders.

Used by course/make_student.py for the student notebooks.  What changes:

* directives (```` ```{name} ```` and ``:::{name}`` fences):
  ``exercise`` becomes a heading "Exercise 3.2 (title)" followed by its text;
  admonitions (``admonition``, ``note``, ``tip``, ``warning``, ``dropdown``, ...)
  become block quotes with a bold title; ``figure``/``image`` an image with
  its caption; ``math`` a ``$$`` block; ``code-block`` a code fence;
  ``bibliography`` the formatted reference list; solutions, ``toctree``
  and other structural directives disappear; unknown ones keep their text;
* roles: ``{cite:t}`` "Kaymak et al. (2012)", ``{cite:p}`` "(Kaymak et al.,
  2012)" from references.bib; ``{doc}`` a link to the other notebook with its
  title; ``{ref}``, ``{numref}``, ``{eq}`` the text or number they would show
  ("Figure 3.1", "(19)"); ``{math}`` ``$...$``; any other role its text;
* ``(label)=`` targets, ``%`` comments and ``+++`` breaks are removed;
  ``$$ ... $$ (label)`` loses the label (and gets ``\\tag`` with its number);
* ``{{ name }}`` substitutions are filled in.
Plain code fences are left exactly as they are.
"""

import json
import os
import re
import sys

import yaml

DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:.-]+)\}[ \t]*(?P<arg>.*)$")
CODE_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
OPTION = re.compile(r"^[ \t]*:(?P<key>[\w-]+):[ \t]*(?P<value>.*)$")
TARGET = re.compile(r"^[ \t]*\((?P<label>[^()\s]+)\)=[ \t]*$")
# a role's content ends at the first run of as many backticks as opened it
# ({web}``... {numref}`fig-x` ...`` holds a role of its own)
ROLE = re.compile(r"\{(?P<name>[\w:.-]+)\}(?P<ticks>`+)(?P<content>.+?)(?P=ticks)(?!`)", re.S)
LABELLED_MATH = re.compile(r"\$\$(?P<body>.+?)\$\$[ \t]*\((?P<label>[\w:.-]+)\)", re.S)
SUBSTITUTION = re.compile(r"\{\{\s*(?P<name>[\w-]+)\s*\}\}")
TAG = re.compile(r"\\tag\{([^}]*)\}")
EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)

ADMONITIONS = {"admonition", "note", "tip", "hint", "important", "warning", "caution",
               "attention", "danger", "error", "seealso", "dropdown", "topic", "sidebar",
               "margin", "card"}
CODE_DIRECTIVES = {"code-block", "code", "sourcecode", "code-cell"}
DROPPED = {"solution", "solution-start", "solution-end", "toctree", "tableofcontents",
           "glue:figure", "raw", "eval-rst", "index", "contents"}


# -- the book's labels, titles and references -----------------------------------
def _persons_text(persons, style):
    from book_html import latex_to_text

    names = [latex_to_text(" ".join(p.prelast_names + p.last_names)) for p in persons]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} et al."


class BookIndex:
    """What the cross references and citations of the whole book resolve to."""

    def __init__(self):
        self.titles = {}         # docname -> (title, file name)
        self.labels = {}         # label -> text a {ref} without text shows
        self.numbers = {}        # label -> number ("3.1") for {numref} and {eq}
        self.kinds = {}          # label -> "Figure", "Exercise", "Table", "Equation"
        self.cites = {}          # bib key -> (author text, year)
        self.bibliography = []   # formatted entries (Markdown), in the list's order
        self.substitutions = {}

    @classmethod
    def from_book(cls, root, substitutions=None):
        index = cls()
        index.substitutions = dict(substitutions or {})
        chapter_numbers = _chapter_numbers(os.path.join(root, "_toc.yml"))
        chapters = os.path.join(root, "chapters")
        for name in sorted(os.listdir(chapters)):
            doc, ext = os.path.splitext(name)
            if ext not in (".ipynb", ".md"):
                continue
            path = os.path.join(chapters, name)
            index._scan(doc, name, path, chapter_numbers.get(doc))
        bib = os.path.join(root, "references.bib")
        if os.path.isfile(bib):
            index._read_bib(bib)
        return index

    def _scan(self, doc, name, path, chapter):
        if name.endswith(".ipynb"):
            with open(path, encoding="utf-8") as fh:
                nb = json.load(fh)
            cells = [(c["cell_type"], "".join(c["source"]), c.get("metadata", {}))
                     for c in nb["cells"]]
        else:
            with open(path, encoding="utf-8") as fh:
                cells = [("markdown", fh.read(), {})]
        counters = {}

        def number(label, kind):
            counters[kind] = counters.get(kind, 0) + 1
            k = counters[kind]
            self.numbers[label] = f"{chapter}.{k}" if chapter else f"{k}"
            self.kinds[label] = kind

        pending = []
        for kind, text, meta in cells:
            if kind == "code":
                fig = meta.get("mystnb", {}).get("figure", {})
                if fig.get("name"):
                    number(fig["name"], "Figure")
                continue
            lines = text.splitlines()
            for i, line in enumerate(lines):
                m = TARGET.match(line)
                if m:
                    pending.append(m.group("label"))
                    continue
                if not line.strip():
                    continue
                if pending:
                    heading = re.match(r"^#+\s+(.*)$", line)
                    if heading:
                        title = heading.group(1).strip()
                        for label in pending:
                            self.labels[label] = title
                    elif line.lstrip().startswith("$$"):
                        rest = "\n".join(lines[i:])
                        tag = TAG.search(rest.split("$$")[1] if rest.count("$$") >= 2 else rest)
                        for label in pending:
                            if tag:
                                self.numbers[label] = tag.group(1)
                                self.kinds[label] = "Equation"
                            else:
                                number(label, "Equation")
                            self.labels[label] = f"({self.numbers[label]})"
                    pending = []
                if doc not in self.titles:
                    heading = re.match(r"^#\s+(.*)$", line)
                    if heading:
                        self.titles[doc] = (_strip_roles(heading.group(1).strip()), name)
                d = DIRECTIVE.match(line)
                if d:
                    opts = _options(lines[i + 1:])
                    label = opts.get("label") or opts.get("name")
                    kind_of = {"exercise": "Exercise", "figure": "Figure", "table": "Table",
                               "list-table": "Table", "math": "Equation"}.get(d.group("name"))
                    if label and kind_of:
                        number(label, kind_of)
                        title = d.group("arg").strip()
                        self.labels[label] = (f"{kind_of} {self.numbers[label]}"
                                              + (f" ({title})" if title and kind_of == "Exercise" else ""))
            for m in LABELLED_MATH.finditer(text):
                tag = TAG.search(m.group("body"))
                if tag:
                    self.numbers[m.group("label")] = tag.group(1)
                    self.kinds[m.group("label")] = "Equation"
                else:
                    number(m.group("label"), "Equation")
        self.titles.setdefault(doc, (doc, name))

    def _read_bib(self, path):
        from pybtex.database import parse_file
        from pybtex.plugin import find_plugin

        # the book's Sphinx extension (builders/) formats the bibliography
        builders = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "builders")
        if builders not in sys.path:
            sys.path.insert(0, builders)
        from book_html import latex_to_text  # also registers the "authoryear" style

        data = parse_file(path)
        for key, entry in data.entries.items():
            persons = entry.persons.get("author") or entry.persons.get("editor") or []
            who = _persons_text(persons, "t")
            if not who:
                who = "*" + latex_to_text(entry.fields.get("title", key)).replace("--", "–") + "*"
            self.cites[key] = (who, entry.fields.get("year", "n.d."))
        style = find_plugin("pybtex.style.formatting", "authoryear")()
        for entry in style.format_bibliography(data):
            text = " ".join(entry.text.render_as("markdown").replace("\\", "").split())
            self.bibliography.append(f"**[{entry.label}]** {text}")

    # -- resolving ----------------------------------------------------------
    def cite(self, mode, keys):
        parts = [self.cites.get(k, (k, "n.d.")) for k in keys]
        if mode in ("cite:t", "cite:ts", "cite:alt", "cite:label"):
            return "; ".join(f"{who} ({year})" for who, year in parts)
        if mode == "cite:author":
            return "; ".join(who for who, _ in parts)
        if mode == "cite:year":
            return "; ".join(year for _, year in parts)
        return "(" + "; ".join(f"{who}, {year}" for who, year in parts) + ")"

    def doc(self, target, current, text=None):
        name = target.split("/")[-1].split("#")[0]
        name = os.path.splitext(name)[0]
        title, filename = self.titles.get(name, (name, None))
        shown = text or title
        if filename and filename.endswith(".ipynb") and name != current:
            return f"[{shown}]({filename})"
        return shown

    def ref(self, label):
        return self.labels.get(label, label.replace("-", " "))

    def numref(self, label, text=None):
        num = self.numbers.get(label, "?")
        if text:
            return text.replace("%s", num).replace("{number}", num)
        return f"{self.kinds.get(label, 'Figure')} {num}"


def _chapter_numbers(toc_path):
    if not os.path.isfile(toc_path):
        return {}
    with open(toc_path, encoding="utf-8") as fh:
        toc = yaml.safe_load(fh)
    numbers, n = {}, 0
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            if part.get("numbered"):
                n += 1
                numbers[os.path.basename(chapter["file"])] = n
    return numbers


def _options(lines):
    opts = {}
    for line in lines:
        m = OPTION.match(line)
        if not m:
            break
        opts[m.group("key")] = m.group("value").strip()
    return opts


MEDIUM_ROLE = re.compile(r"\{(?P<name>web|print)\}(?P<ticks>`+)(?P<content>.+?)(?P=ticks)(?!`)", re.S)


def for_medium(text, medium="web"):
    """MyST text as one medium shows it: ``{web}`` phrases kept and ``{print}``
    ones dropped (medium "web"), or the other way round ("print"); every other
    role is left as it is (builders/print_web.py)."""
    return MEDIUM_ROLE.sub(lambda m: m.group("content") if m.group("name") == medium else "", text)


def _strip_roles(text):
    return ROLE.sub(lambda m: m.group("content"), text)


# -- conversion ---------------------------------------------------------------
def convert(text, index, doc):
    """Plain Markdown for one cell or page of the document `doc` (e.g. 'ch04_auk')."""
    text = SUBSTITUTION.sub(lambda m: str(index.substitutions.get(m.group("name"), m.group(0))), text)
    text = _blocks(text.splitlines(), index, doc)
    return text


def _blocks(lines, index, doc):
    segments = [[False, []]]             # [is_code, lines]: roles never touch code

    def emit(new_lines, code=False):
        if segments[-1][0] != code:
            segments.append([code, []])
        segments[-1][1].extend(new_lines)

    i = 0
    while i < len(lines):
        line = lines[i]
        code = CODE_FENCE.match(line)
        d = DIRECTIVE.match(line)
        if code and not d and "{" not in code.group("info"):
            end = _closing(lines, i, code.group("fence"))
            emit(lines[i:end + 1], code=True)       # plain code: verbatim
            i = end + 1
            continue
        if d:
            end = _closing(lines, i, d.group("fence"), directive=True)
            body = lines[i + 1:end]
            opts, k = {}, 0
            if body and body[0].strip() == "---":     # YAML options block
                close = next((j for j in range(1, len(body)) if body[j].strip() == "---"), 0)
                opts = yaml.safe_load("\n".join(body[1:close])) or {}
                k = close + 1
            while k < len(body) and OPTION.match(body[k]):
                m = OPTION.match(body[k])
                opts[m.group("key")] = m.group("value").strip()
                k += 1
            name = d.group("name")
            converted = _directive(name, d.group("arg").strip(), opts, body[k:], index, doc)
            emit(converted, code=name in CODE_DIRECTIVES)
            i = end + 1
            continue
        if TARGET.match(line) or re.match(r"^\s*%", line) or line.strip() == "+++":
            i += 1
            continue
        emit([line])
        i += 1
    parts = []
    for is_code, seg in segments:
        if seg or len(segments) == 1:
            text = "\n".join(seg)
            parts.append(text if is_code else _roles(_labelled_math(text, index), index, doc))
    return "\n".join(parts)


def _closing(lines, start, fence, directive=False):
    """Index of the line closing the fence opened at lines[start] (or the last line)."""
    char, length, depth = fence[0], len(fence), 0
    for j in range(start + 1, len(lines)):
        stripped = lines[j].strip()
        if directive and re.match(rf"^{re.escape(char)}{{{length}}}\{{", stripped):
            depth += 1                      # a nested directive with the same fence
        elif re.fullmatch(rf"{re.escape(char)}{{{length},}}", stripped):
            if depth == 0:
                return j
            depth -= 1
    return len(lines) - 1


def _quote(lines):
    return [("> " + l).rstrip() for l in lines]


def _directive(name, arg, opts, body, index, doc):
    inner = _blocks(body, index, doc).strip("\n").splitlines()
    title = _roles(arg, index, doc)
    if name in DROPPED:
        return []
    if name == "only":                   # a notebook is read on screen, not printed
        return ["", *inner, ""] if arg.strip() in ("html", "not latex") else []
    if name == "exercise":
        label = opts.get("label", "")
        num = index.numbers.get(label, "")
        head = f"### Exercise {num}".rstrip() + (f" ({title})" if title else "")
        return ["", head, "", *inner, ""]
    if name in ADMONITIONS:
        if name in ("admonition", "dropdown", "topic", "sidebar", "margin", "card"):
            heading = title or name.capitalize()
        else:
            heading = name.capitalize() + (f": {title}" if title else "")
        return ["", *_quote([f"**{heading}**", "", *inner]), ""]
    if name in ("figure", "image"):
        alt = opts.get("alt", "")
        lines = ["", f"![{alt}]({arg})", ""]
        if inner:
            label = opts.get("name", "")
            num = index.numbers.get(label)
            caption = " ".join(l.strip() for l in inner if l.strip())
            lines += [f"*Figure {num}: {caption}*" if num else f"*{caption}*", ""]
        return lines
    if name == "math":
        label = opts.get("label", "")
        tag = f" \\tag{{{index.numbers[label]}}}" if label in index.numbers else ""
        return ["", "$$", *inner, *([tag.strip()] if tag else []), "$$", ""]
    if name in CODE_DIRECTIVES:
        return [f"```{arg}", *body[0:], "```"]
    if name == "bibliography":
        return [f"- {entry}" for entry in index.bibliography]
    if title and name not in ("list-table", "table", "csv-table"):
        return ["", f"**{title}**", "", *inner, ""]
    return ["", *inner, ""]


def _labelled_math(text, index):
    def repl(m):
        body, label = m.group("body"), m.group("label")
        if not TAG.search(body) and label in index.numbers:
            body = body.rstrip() + f" \\tag{{{index.numbers[label]}}} "
        return f"$${body}$$"
    return LABELLED_MATH.sub(repl, text)


def _roles(text, index, doc):
    def repl(m):
        name, content = m.group("name"), m.group("content")
        explicit = EXPLICIT.match(content)
        shown, target = (explicit.group("text"), explicit.group("target")) if explicit else (None, content)
        if name.startswith("cite"):
            keys = [k.strip() for k in re.sub(r"\{[^}]*\}", "", content).split(",") if k.strip()]
            return index.cite(name if name != "cite" else "cite:p", keys)
        if name == "doc":
            return index.doc(target, doc, shown)
        if name == "ref":
            return shown or index.ref(target)
        if name == "numref":
            return index.numref(target, shown)
        if name == "eq":
            return shown or f"({index.numbers.get(target, target)})"
        if name == "math":
            return f"${content}$"
        if name == "web":                # builders/print_web.py: a notebook is on screen
            return _roles(content, index, doc)
        if name == "print":
            return ""
        return shown or content
    return ROLE.sub(repl, text)
