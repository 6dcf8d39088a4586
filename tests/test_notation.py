"""The notation page (chapters/notation.md) against the chapters: one symbol,
one meaning.

* every symbol the page's tables define is defined once (a restatement of a
  symbol by another formula is named in RESTATED);
* a letter of the page's table of local meanings has its global meaning on the
  page, or is marked "(no global meaning)" and has none;
* each symbol of CHECKED that a chapter writes in its mathematics ($...$, in
  Markdown cells) is on the page; and where the page ties a symbol to the
  chapters that use it ({doc} links in its rows), no other chapter writes it.
  That is what keeps q the probability forecast of chapter 14 and not an
  alarm rate, r the bias ratio of chapter 11 and not a number of folds, c the
  number of classes and not a threshold or a cost. The mathematics read
  includes inline formulas broken over two lines, and a letter or Greek
  symbol that heads a column of a table a chapter prints (a DataFrame's
  index name) counts as written there;
* an indexed local symbol (a_k, b_k, v_k, v_pm, p_ij, R_j, n_1 and n_{10},
  Q_i) is on the page;
* a count of data sets is written b and a count of folds or splits n_delta,
  unless the text says it quotes another source's letter ("the book's b").
"""

import glob
import json
import os
import re
from collections import defaultdict

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "chapters", "notation.md")
CHAPTERS = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb")))
# inline mathematics may be broken over one line end, never over a blank line
MATH = re.compile(r"\$\$(.+?)\$\$|\$((?:[^$\n]|\n(?!\s*\n))+?)\$", re.S)
CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.S | re.M)
DOC = re.compile(r"\{doc\}`(?:[^`<]*<)?(ch\d\d_\w+|sources|validation|intro)>?`")
# symbols written with more than one letter, taken out before single letters
# are looked for: costs c_FP, c_FN; the studentised range q_alpha; names in roman
COMPOUND = [r"c_\{FP\}", r"c_\{FN\}", r"q_\\alpha", r"n_\\delta", r"\\hat\\pi",
            r"\\(?:mathrm|text|operatorname|mathbb|mathcal)\{[^{}]*\}"]
# the symbols whose use in the chapters is checked against the page
CHECKED = ["q", "r", "c", "J", "N", "P", "p", "n", "t", "f", "d", "D", "h", "k", "b",
           "a", "m", "v", "K", "S", "R", "U", "L", "M", "Q", "B", "T", "F", "s",
           r"\theta", r"\lambda", r"\tau", r"\omega", r"\gamma", r"\eta",
           r"\xi", r"\rho", r"\alpha", r"\beta",
           r"\hat\pi", r"n_\delta", r"q_\alpha"]
# local symbols written with an index, each found under the name the page gives it
INDEXED = [(r"(?<![\\A-Za-z])a_k", r"a_k"), (r"(?<![\\A-Za-z])b_k", r"b_k"),
           (r"(?<![\\A-Za-z])(?:v_\\pm|v_\{?[+-]\}?)", r"v_\pm"),
           (r"p_\{(?:[ij]{2}|[ij]\s*\\cdot|\\cdot\s*[ij])\}", r"p_{ij}"),
           (r"(?<![\\A-Za-z])n_(?:\d|\{\d+\})", r"n_1"), (r"(?<![\\A-Za-z])Q_i\b", r"Q_i"),
           (r"(?<!\\bar)(?<!\\bar )(?<![A-Za-z])R_[jl]\b", r"R_j"), (r"\\bar\s*R_[jl]\b", r"\bar R_j")]
# Greek letters as a printed table writes them
GREEK = {"θ": r"\theta", "λ": r"\lambda", "τ": r"\tau", "ω": r"\omega", "γ": r"\gamma",
         "η": r"\eta", "ξ": r"\xi", "ρ": r"\rho"}
HEADER = re.compile(r"<th[^>]*>\s*([^<\s])\s*</th>")    # read inside <thead> only
THEAD = re.compile(r"<thead>(.*?)</thead>", re.S)
# a count of these is written with the page's letter
COUNT_LETTER = {"data sets": "b", "folds": r"n_\delta", "splits": r"n_\delta"}
COUNT = re.compile(r"\$([^$]+)\$\s+(?:random\s+|train/test\s+)?(data sets|folds|splits)\b"
                   r"([^()]{0,40}\))?")
# rows that restate a symbol by another formula, not a second meaning
RESTATED = {r"\hat p": ["eq. (17): the share predicted positive in ROC terms"],
            "t": ["t = g(f): the ROC curve, the true positive rate as a function of f",
                  "t = t_0 + m f: an iso-kappa line, the ROC points with one kappa"],
            r"\kappa": ["kappa(f): the kappa curve, kappa as a function of f"]}


def page_sections():
    text = open(PAGE, encoding="utf-8").read()
    main, rest = text.split("(notation-other-uses)=", 1)
    local = rest.split("(notation-local-uses)=", 1)[1]
    return main, local


def rows(text):
    """The cells of each table row of ``text`` (header and rule rows left out)."""
    found = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"^\|[-| ]+\|$", line):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] not in ("symbol", "letter", "", "elsewhere", "name in the book"):
                found.append(cells)
    return found


def defined(cell):
    """The symbols a table cell defines: '$n = 1 - p$' -> ['n'];
    '$N_+$, $N_-$' -> ['N_+', 'N_-']; '$\\kappa(f)$' -> ['\\kappa']."""
    out = []
    for m in re.finditer(r"\$([^$]+)\$", cell):
        head = m.group(1).split("=")[0].strip()
        head = re.sub(r"\(.*\)$", "", head).strip()      # a function: its name
        out.append(head)
    return out


def main_table():
    """{symbol: [rows]} of the page's main tables."""
    main, _ = page_sections()
    table = defaultdict(list)
    for cells in rows(main):
        for symbol in defined(cells[0]):
            table[symbol].append(cells)
    return table


def local_table():
    _, local = page_sections()
    return {symbol: cells for cells in rows(local) if len(cells) == 3
            for symbol in defined(cells[0])}


def _row_symbols_cell(symbol):
    _, local = page_sections()
    return next(cells[0] for cells in rows(local) if symbol in defined(cells[0]))


def symbols_in(body):
    """The CHECKED symbols written in one piece of mathematics."""
    found = set()
    for compound, name in ((r"q_\\alpha", r"q_\alpha"), (r"n_\\delta", r"n_\delta"),
                           (r"\\hat\\pi", r"\hat\pi")):
        if re.search(compound, body):
            found.add(name)
    for rx, name in INDEXED:
        if re.search(rx, body):
            found.add(name)
            body = re.sub(rx, " ", body)
    body = re.sub(r"S_[+-]|S_\{[+-]\}|R_\+|R_\{\+\}|s\^[+-]|s\^\{[+-]\}", " ",
                  body)   # main-table symbols
    for rx in COMPOUND:
        body = re.sub(rx, " ", body)
    for symbol in CHECKED:
        if symbol.startswith("\\") and "_" not in symbol and "hat" not in symbol:
            if re.search(re.escape(symbol) + r"(?![A-Za-z])", body):
                found.add(symbol)
        elif len(symbol) == 1 and re.search(r"(?<![\\A-Za-z_^])" + symbol + r"(?![A-Za-z])", body):
            found.add(symbol)
    return found


def markdown_math(text):
    """The pieces of mathematics in Markdown ``text`` (code left out)."""
    return [m.group(1) or m.group(2) for m in MATH.finditer(CODE.sub(" ", text))]


def header_symbols(cell):
    """The CHECKED symbols that head a column (or index) of a printed table."""
    found = set()
    for out in cell.get("outputs", []):
        html = "".join(out.get("data", {}).get("text/html", ""))
        for head in HEADER.findall(" ".join(THEAD.findall(html))):
            symbol = GREEK.get(head, head)
            if symbol in CHECKED:
                found.add(symbol)
    return found


def chapter_symbols(path):
    nb = json.load(open(path, encoding="utf-8"))
    found = set()
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for body in markdown_math("".join(cell["source"])):
                found |= symbols_in(body)
        else:
            found |= header_symbols(cell)
    return found


def miscounted(text):
    """'$N$ data sets' and the like: counts written with another letter than the
    page's, unless a parenthesis says it quotes a source ("the book's b")."""
    wrong = []
    for m in COUNT.finditer(CODE.sub(" ", text)):
        symbol = m.group(1).split("=")[0].strip()
        if symbol != COUNT_LETTER[m.group(2)] and "the book's" not in (m.group(3) or ""):
            wrong.append(m.group(0))
    return wrong


USES = {os.path.splitext(os.path.basename(p))[0]: chapter_symbols(p) for p in CHAPTERS}


def test_each_symbol_on_the_page_has_one_meaning():
    twice = {s: [r[1][:60] for r in rs] for s, rs in main_table().items()
             if len(rs) > 1 + len(RESTATED.get(s, []))}
    assert not twice, f"defined more than once on the notation page: {twice}"


def test_local_letters_agree_with_the_global_table():
    table = main_table()
    for symbol, (_, global_meaning, local) in local_table().items():
        if local.endswith("everywhere"):
            continue          # N(mu, sigma^2): a notation of its own, with its arguments
        if len(defined(_row_symbols_cell(symbol))) > 1 and f"${symbol}$" not in global_meaning \
                and not global_meaning.startswith("(no global meaning"):
            continue          # '$t_0$, $f_0$': the global column speaks of t_0 only
        if global_meaning.startswith("(no global meaning"):
            assert symbol not in table, f"{symbol} has a global meaning on the page"
        else:
            mentioned = any(f"${symbol}$" in " ".join(cells)
                            for rs in table.values() for cells in rs)
            assert symbol in table or mentioned, (
                f"{symbol}: the local table gives it a global meaning that the page's "
                "tables do not define")
        assert DOC.search(local), f"{symbol}: a local meaning names the chapter it holds in"


def allowed_chapters(symbol):
    """The chapters the page ties ``symbol`` to, or None (any chapter)."""
    docs, tied = set(), False
    for cells in main_table().get(symbol, []):
        links = DOC.findall(" ".join(cells))
        if links:
            tied = True
            docs.update(links)
        else:
            return None                        # a meaning for the whole book
    local = local_table().get(symbol)
    if local:
        docs.update(DOC.findall(local[2]))
        tied = True
    return docs if tied else None


@pytest.mark.parametrize("doc", sorted(USES))
def test_each_checked_symbol_a_chapter_uses_is_on_the_page(doc):
    on_page = set(main_table()) | set(local_table())
    missing = sorted(s for s in USES[doc] if s not in on_page)
    assert not missing, f"{doc} writes {missing}, which the notation page does not list"


@pytest.mark.parametrize("doc", sorted(USES))
def test_a_symbol_tied_to_chapters_appears_only_there(doc):
    wrong = {s: sorted(allowed_chapters(s)) for s in USES[doc]
             if allowed_chapters(s) is not None and doc not in allowed_chapters(s)}
    assert not wrong, (f"{doc} writes {sorted(wrong)}, which the notation page gives "
                       f"a meaning in other chapters only: {wrong}")


@pytest.mark.parametrize("doc", sorted(USES))
def test_counts_of_data_sets_and_folds_use_the_pages_letters(doc):
    nb = json.load(open(os.path.join(ROOT, "chapters", doc + ".ipynb"), encoding="utf-8"))
    wrong = [w for cell in nb["cells"] if cell["cell_type"] == "markdown"
             for w in miscounted("".join(cell["source"]))]
    assert not wrong, f"{doc} counts data sets or folds with another letter: {wrong}"


def test_the_scan_reads_the_chapters_and_the_page():
    # guards the tests above: what they look for is found
    assert {"q", "r", "c"} <= set(main_table())
    assert allowed_chapters("q") == {"ch14_calibration", "ch04_auk"}
    assert allowed_chapters("p") is None
    assert "q" in USES["ch14_calibration"] and "r" in USES["ch11_peers"]
    assert symbols_in(r"q_\alpha \sqrt{k(k+1)/(6b)}") == {r"q_\alpha", "k", "b"}
    assert symbols_in(r"c_{FP} + \theta") == {r"\theta"}
    assert symbols_in(r"\mathrm{prec}_1 = \rho q") == {r"\rho", "q"}
    # a chapter writing q for an alarm rate would be caught
    assert "ch01_accuracy_kappa" not in allowed_chapters("q")
    # the slips the checks were extended for: r for the number of folds in a
    # formula broken over two lines, q heading a printed table, indexed local
    # symbols, N for a number of data sets
    assert "r" in {s for b in markdown_math("then $x = r\\sigma^2\n- r$ holds")
                   for s in symbols_in(b)}
    assert markdown_math("a `$x$` and $y$\n\n$z$") == ["y", "z"]
    assert header_symbols({"outputs": [{"data": {"text/html": (
        "<thead><th>N</th><th>q</th></thead><tbody><th>R</th></tbody>")}}]}) == {"N", "q"}
    assert header_symbols({"outputs": [{"data": {"text/html": "<thead><th>ω</th></thead>"}}]}) \
        == {r"\omega"}
    assert "a_k" not in symbols_in(r"\sum_k (\delta_k - \bar\delta)")
    assert symbols_in(r"\sum_k S(F_{k-1}, T_{k-1}, b_k, a_k)") >= {"S", "a_k", "b_k", "k"}
    assert symbols_in(r"v_\pm = 1") == {r"v_\pm"} and symbols_in(r"S_+ > S_-") == set()
    assert symbols_in(r"p_{ij}\,(p_{\cdot i} + p_{j\cdot})") == {r"p_{ij}"}
    assert symbols_in(r"\sum_j \bar R_j^2") == {r"\bar R_j"}
    assert symbols_in(r"\sum_j R_j") == {"R_j"}
    assert miscounted("$\\sqrt{k(N+1)/6}$ for $N$ data sets") == ["$N$ data sets"]
    assert miscounted("for $K$ folds, and $b = 3$ data sets") == ["$K$ folds"]
    assert miscounted("($n$ data sets, the book's $b$)") == []
    # the letters added after an expert's review found them unlisted: counts
    # n_1, n_{10}; Q_i beside Q(gamma); the scores s^+_i against a bare s
    assert symbols_in(r"s^2 (1/n_\delta + n_2/n_1)") == {"s", "n_1", r"n_\delta"}
    assert symbols_in(r"(|n_{10} - n_{01}| - 1)^2") == {"n_1"}
    assert symbols_in(r"\sum_{i=1}^{b} Q_i") == {"Q_i", "b"}
    assert symbols_in(r"Q(\gamma) = \gamma\, n f") == {"Q", r"\gamma", "n", "f"}
    assert symbols_in(r"s^+_i > s^-_j") == set() and symbols_in(r"s_{i\mid j}") == {"s"}
    assert symbols_in(r"L \le \mathrm{AUK} \le U") == {"L", "U"}
    assert symbols_in(r"FP = \alpha + \beta\,TP") == {r"\alpha", r"\beta"}
    # a chapter writing Q_i or a bare s outside the chapters the page names is caught
    assert allowed_chapters("U") == {"ch02_roc_auc", "sources", "ch12_at_scale"}
    assert "ch04_auk" not in allowed_chapters("Q_i") and "ch05_threshold" not in allowed_chapters("s")
