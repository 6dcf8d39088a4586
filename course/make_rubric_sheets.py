"""Write one rubric sheet per student: their numbers, expected answers and rubrics.

    python course/make_rubric_sheets.py ROSTER [--key KEY] [--out DIR] [--chapters ch01 ...]

ROSTER is a text file with one student id per line, or a CSV file whose
header has a ``student_id`` column (other columns are ignored).  KEY is the
course key of the released assignments (``aukbook.variants.roster_key``);
without ``--key`` the key of this roster is computed and printed (the same
key ``roster_key`` gave for the same roster at release; ``--key none`` for
assignments released without a key).

For every student the sheet ``DIR/<student id>.md`` (and ``.html``; default
DIR is ``_build/grading/rubrics``) lists, chapter by chapter, each exercise
with a numerical answer or a rubric: the student's own numbers for the
exercises with variants, the expected answer rounded as printed (one digit
finer than the tolerance), and the exercise's rubric from
``chapters/rubrics.md`` with every number that depends on the variant
replaced by the student's (``PHRASES`` below; the rubric page marks the book's
numbers as "the book's numbers").  The sheets hold reference answers: they are
instructor material, like ``_build/grading``.
"""

import argparse
import glob
import html
import math
import os
import re
import sys

import nbformat
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "course"))
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")

from aukbook import variants  # noqa: E402
from aukbook.checks import CHECKS  # noqa: E402
from answers.grading import _module, answer, expected  # noqa: E402

RUBRICS = os.path.join(ROOT, "chapters", "rubrics.md")
HEAD = re.compile(r"^### (.+) — ([a-z ]+), (\d+(?:\.\d+)?) points\n\n"
                  r"Rubric for \{ref\}`([\w-]+)`\.$", re.M)
BOOK_MARK = "the book's numbers"

# Rubric phrases that name a number of the exercise's variant.  <<name>> is a
# value of the chapter's RUBRIC_VALUES[label] (tests/answers); <<book>> reads
# " (the book's numbers)" and <<book;>> "the book's numbers; " on the rubric
# page, and nothing on a student's sheet.  The rubric page holds each phrase
# filled in with the book's numbers (tests/test_rubrics.py checks it).
PHRASES = {
    "ch1-ex-fourth": [
        "$TP = <<tp>>$, $FN = <<fn>>$, $FP = <<fp>>$, $TN = <<tn>>$<<book>>",
        "accuracy <<accuracy>>, kappa <<kappa>> (<<book;>>self-check)",
        "<<verdict>> (<<book;>>$\\kappa_A = 0.640$): its accuracy is <<majority>> "
        "the majority rule's, $1 - p$, yet its kappa shows real skill; <<trade>>",
    ],
    "ch1-ex-random": [
        "$\\mathrm{sd}\\cdot\\sqrt N \\approx <<sd_root_n>>$ (<<book;>>self-check)",
        "standard deviation about $<<sd_root_n>>/\\sqrt N$, about <<sd>> at "
        "$N = 10{,}000$<<book>>",
    ],
    "ch2-ex-binormal": ["<<auc>> (<<book;>>self-check)"],
    "ch2-ex-pairs": [
        "<<wins>> of 16 pairs by counting (<<book;>>AUC <<auc>>)",
        "one, at <<diagonal>>, where <<who>> pass the threshold together; the tie at "
        "<<neg_tie>> is between two negatives<<book>>",
    ],
    "ch2-ex-mix": [
        "$\\lambda = <<lam>>$, $t = <<t>>$ (<<book;>>self-check)",
        "at $f = <<f>>$ it catches <<t3_pct>>% where the mixture catches "
        "<<t_pct>>%<<book>>",
    ],
    "ch2-ex-flip": [
        "$<<auc>> \\times <<pairs>> = <<won>>$ of <<pairs>> pairs won by the "
        "positive<<book>>",
        "AUC <<auc_flip>>, Gini <<gini_flip>><<book>>",
        "on <<n_pos>> positives and <<n_neg>> negatives random scores give an AUC with "
        "standard deviation about <<sd>>, so <<auc>> is <<within>><<book>>",
        "\"flip it, the AUC becomes <<auc_flip>>\"<<book>>",
    ],
    "ch3-ex-straight": ["peak at $f = <<f>>$, the vertex (<<book;>>self-check)"],
    "ch4-ex-crisp": [
        "trapezoid <<trap>>, exact <<exact>> (<<book;>>self-check)",
        "kappa at $p = <<p>>$ on a fine grid along $t = <<slope>>f$ on $[0, <<f1>>]$ "
        "and along the second segment on $[<<f1>>, 1]$, added up in thin strips, "
        "agrees with the exact value<<book>>",
    ],
    "ch4-ex-skew": ["AUC − 1/2 about <<half>>, AUK about <<auk>> (<<book;>>self-check)"],
    "ch4-ex-shape": [
        "$\\sigma = <<winner>>$ at $p = <<p>>$ (<<book;>>AUKs <<narrow>> and <<wide>>, "
        "self-check); a tie (<<half>> = AUC − 1/2) at $p = 0.5$",
    ],
    "ch4-ex-deploy": [
        "<<auk>> by both routes (<<book;>>self-check)",
        "weights $<<p>>/N_+$ for positives and $<<q>>/N_-$ for negatives, so that the "
        "weighted share is $p = <<p>>$<<book>>",
    ],
    "ch5-ex-pivot": ["$<<v1>>$, $<<v2>>$, $<<v3>>$ (<<book;>>self-check)"],
    "ch5-ex-deploy": [
        "kappa optimum flags about <<k_flagged>> and finds about <<k_found>> of "
        "<<cases>> cases; Youden flags about <<y_flagged>> and finds about <<y_found>> "
        "(<<book;>>self-check)",
        "whether the service can take <<y_flagged>> follow-ups<<book>>",
    ],
    "ch6-ex-wrong": [
        "<<values>> (<<book;>>self-check), which average to $M = <<m>>$",
    ],
    "ch6-ex-weighted": [
        "unweighted <<unweighted>> (<<unweighted_change>>), linear "
        "<<linear>>, quadratic <<quadratic>> (<<book;>>self-check)",
        "<<costs>><<book>>",
    ],
    "ch7-ex-split": [
        "<<count>> of the 20 splits (<<book;>>self-check)",
        "so <<count>> is <<in_line>><<book>>",
    ],
    "ch7-ex-hull": [
        "<<linear>> for the linear model and <<net>> for the network "
        "(<<book;>>self-check)",
    ],
    "ch8-ex-friedman": [
        "$T = <<t>>$, exact $P = <<p>>$ (<<book;>>self-check)",
        "chi-square $P \\approx <<chi2>>$<<book>>",
    ],
    "ch8-ex-threshold": [
        "<<kappa>> at the best threshold (<<book;>>self-check)",
    ],
    "ch9-ex-misses": [
        "the number of intervals times the miss rate, <<mean>> of <<n_sets>><<book>>",
        "about <<share>> (<<book;>>self-check)",
        "the observed coverage, <<observed>> with <<k>> of <<n_sets>> missing<<book>>, "
        "set against its Monte Carlo standard error (about <<mcse>>): a correct rule "
        "does this in about <<share>> of batches",
    ],
    "ch9-ex-swap": [
        "(<<book;>>AUCs <<auc_a>> and <<auc_b>>, difference <<diff>>; self-check)",
        "(<<book;>><<count>> of 64; self-check)",
    ],
    "ch10-ex-bc": [
        "$z_0 = \\Phi^{-1}(<<share>>)$; levels $\\Phi(2z_0 \\mp <<z>>)$, about <<low>> "
        "and <<high>> (<<book;>>self-check)",
        "the percentile levels <<plain>> unchanged<<book>>",
    ],
    "ch11-ex-report": [
        "$\\rho \\approx <<rho>>$, $\\mathrm{prec}_1 \\approx <<q>>$ (<<book;>>self-check), "
        "and the other root ($\\rho \\approx <<rho_other>>$, $\\mathrm{prec}_1 \\approx "
        "<<q_other>>$) noted",
    ],
    "ch13-ex-placements": [
        "the tie of <<tie>> counted one half; AUCs <<auc_a>> and <<auc_b>><<book>>",
        "$z \\approx <<z>>$ (<<book;>>self-check)",
    ],
    "ch13-ex-mcnemar": [
        "only the <<m>> discordant cases count; $2\\,P(\\mathrm{Bin}(<<m>>, 1/2) \\le "
        "<<k>>) \\approx <<p>>$ (<<book;>>self-check)",
        "negatives <<neg>>, $P \\approx <<p_neg>>$ (<<h_neg>> after Holm), positives "
        "<<pos>>, $P \\approx <<p_pos>>$ (<<h_pos>> after Holm)<<book>>: "
        "<<neg_verdict>>, <<pos_verdict>>",
        "a's errors cost $<<cost_a>>$, b's $<<cost_b>>$<<book>>: <<cheaper>>",
        "the conclusion about \"<<score>>\"<<book>>",
        "\"a is better\" from <<score>><<book>>",
    ],
    "ch13-ex-folds": [
        "variance $<<num>>/<<den>> \\approx <<var>>$, rejection rate "
        "$2\\Phi(-t_{0.975,<<df>>}/\\sqrt{<<var>>}) \\approx <<rate>>$ "
        "(<<book;>>self-check)",
        "the normal quantile 1.96 used (<<normal>>)<<book>>",
    ],
    "ch13-ex-cd": [
        "$q_{<<alpha>>} = <<q>>$ for $k = <<k>>$, $\\mathrm{CD} = "
        "<<q>>\\sqrt{<<kk>>/<<six_b>>} \\approx <<cd>>$ (<<book;>>self-check)",
        "<<pairs>><<book>>",
        "<<b>> data sets cannot separate them at this level<<book>>",
    ],
    "ch14-ex-brier": [
        "$\\mathrm{REL} = <<rel>>$, $\\mathrm{RES} = <<res>>$, $\\mathrm{UNC} = "
        "<<base>> \\times <<nbase>> = <<unc>>$ (<<book;>>self-check)",
        "$\\mathrm{REL} - \\mathrm{RES} + \\mathrm{UNC} = <<brier>>$ equals the Brier "
        "score<<book>>",
        "her \"<<top>>\": it rained on <<top_pct>>% of those days, and with "
        "<<top_days>> days it contributes <<top_part>> of the <<rel>>; her "
        "\"<<second>>\" is off by <<gap2>> and contributes <<second_part>><<book>>",
        "<<winner>>: it saves <<res_short>> against forecasting <<base>> every day, "
        "about <<ratio>> times what her reliability costs<<book>>",
    ],
    "ch14-ex-weights": [
        "$\\beta = w_0/w_1 = <<beta>>$<<book>>",
        "$\\eta_{<<q>>} = <<eta>>$ at $q = <<q>>$; $\\eta \\ge 1/2$ exactly when "
        "$q \\ge q^* = <<q_star>>$ (<<book;>>self-check)",
    ],
    "ch14-ex-rate": [
        "$pn = <<pn>>$: <<a>> for A and <<b>> for B (<<book;>>self-check)",
    ],
}


def rubric_values(label, params):
    """The rubric's values of ``label`` at ``params`` (strings, as printed)."""
    values = getattr(_module(label), "RUBRIC_VALUES", {}).get(label)
    return values(**params) if values else {}


def fill(template, values, book):
    """``template`` with its values, and the book marks when ``book``."""
    text = template.replace("<<book>>", f" ({BOOK_MARK})" if book else "")
    text = text.replace("<<book;>>", f"{BOOK_MARK}; " if book else "")

    def value(m):
        if m.group(1) not in values:
            raise KeyError(f"no value {m.group(1)!r} for the template {template!r}")
        return values[m.group(1)]

    return re.sub(r"<<(\w+)>>", value, text)


def book_phrases(label):
    """The phrases of ``label`` as the rubric page holds them (the book's numbers)."""
    values = rubric_values(label, variants.BOOK[label])
    return [fill(t, values, book=True) for t in PHRASES.get(label, [])]


def rubric_blocks(text=None):
    """label -> (title, kinds, points, body) of every rubric of the page."""
    text = open(RUBRICS, encoding="utf-8").read() if text is None else text
    heads = list(HEAD.finditer(text))
    out = {}
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[m.end():end]
        body = re.split(r"^## ", body, flags=re.M)[0]
        out[m.group(4)] = (m.group(1), m.group(2), m.group(3), body.strip("\n"))
    return out


def student_rubric(label, body, params):
    """The rubric body with the student's numbers in place of the book's."""
    if label not in PHRASES:
        return body
    values = rubric_values(label, params)
    for template, book in zip(PHRASES[label], book_phrases(label)):
        if book not in body:
            raise ValueError(f"{label}: the rubric page lacks the phrase {book!r}")
        body = body.replace(book, fill(template, values, book=False))
    if BOOK_MARK in body:
        raise ValueError(f"{label}: a phrase with the book's numbers has no template")
    return body


def digits(label):
    """Decimals printed for ``label``'s answer: one finer than its tolerance."""
    return max(0, math.ceil(-math.log10(answer(label).atol))) + 1


def printed_answer(label, value):
    d = digits(label)
    values = np.ravel(np.asarray(value, dtype=float))
    text = ", ".join(f"{v:.{d}f}" for v in values)
    return f"({text})" if values.size > 1 else text


def exercises():
    """(chapter notebook name, [(label, title)]) in book order."""
    from course_metrics import exercise_labels

    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb"))):
        nb = nbformat.read(path, as_version=4)
        titles = {}
        for cell in nb.cells:
            for m in re.finditer(r"\{exercise\}[ \t]*([^\n]*)\n[ \t]*:label: (\S+)",
                                 cell.source):
                titles[m.group(2)] = m.group(1).strip()
        out.append((os.path.basename(path)[:-6],
                    [(lab, titles.get(lab, lab)) for lab in exercise_labels(nb)]))
    return out


def plain(md):
    """MyST roles the sheet's plain Markdown does not know, as text."""
    md = re.sub(r"\{ref\}`([^`<]*?)(?: <([^>]+)>)?`", lambda m: m.group(1), md)
    return re.sub(r"\{doc\}`([^`]+)`", r"\1", md)


def sheet(student_id, key, chapters=None, blocks=None):
    """The Markdown rubric sheet of one student."""
    blocks = rubric_blocks() if blocks is None else blocks
    lines = [f"# Rubric sheet: {student_id}", "",
             "Instructor material: the expected answers of this student's variant "
             "and the rubrics with their numbers. Course key: "
             f"`{key or 'none (numbers drawn from the id alone)'}`.", ""]
    for name, labels in exercises():
        if chapters and name[:4] not in chapters:
            continue
        lines += [f"## {name}", ""]
        for label, title in labels:
            if label not in CHECKS and label not in blocks:
                continue
            lines += [f"### {title} ({label})", ""]
            params = variants.BOOK.get(label)
            if label in variants.VARIANT_LABELS:
                params = variants.variant(label, student_id, key)
                lines += [variants.describe_variant(label, student_id, key).replace(
                    "Your numbers", "Numbers"), ""]
            elif label in variants.FIXED:
                lines += [f"The same for every student: {variants.FIXED[label]}.", ""]
            if label in CHECKS and CHECKS[label]["kind"] != "function":
                value = expected(label, student_id, key)
                lines += [f"Expected answer (accepted within {answer(label).atol:g}): "
                          f"`{printed_answer(label, value)}`", ""]
            if label in blocks:
                _title, kinds, points, body = blocks[label]
                lines += [f"Rubric ({kinds}, {points} points):", "",
                          plain(student_rubric(label, body, params)), ""]
    return "\n".join(lines).rstrip() + "\n"


def to_html(md, title):
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark").enable("table").render(md)
    # the kit's own page: it runs no script and loads nothing
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; img-src data:\">"
            f"<title>{html.escape(title)}</title><style>body{{font-family:sans-serif;"
            "max-width:60rem;margin:auto;padding:1rem}table{border-collapse:collapse}"
            "td,th{border:1px solid #999;padding:.3rem;vertical-align:top}"
            f"code{{background:#eee}}</style></head><body>\n{body}</body></html>\n")


def read_roster(path):
    """The roster's student ids (grading/lms.py, ``read_students``: the format
    ``make release ROSTER=`` and ``make grade ROSTER=`` read)."""
    from grading.lms import read_students
    return [s.student_id for s in read_students(path)]


def write_sheets(roster, out, key=None, chapters=None, log=print):
    ids = list(dict.fromkeys(s.strip() for s in roster))
    if key is None:
        key = variants.roster_key(ids)
        log(f"course key: {key}")
    elif key.lower() == "none":
        key = ""
    os.makedirs(out, exist_ok=True)
    blocks = rubric_blocks()
    paths = []
    for sid in ids:
        if not re.fullmatch(r"[\w.@-]+", sid):
            raise ValueError(f"student id {sid!r} cannot name a file")
        md = sheet(sid, key, chapters, blocks)
        for ext, text in (("md", md), ("html", to_html(md, f"Rubric sheet: {sid}"))):
            path = os.path.join(out, f"{sid}.{ext}")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            paths.append(path)
    return key, paths


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roster")
    parser.add_argument("--key", default=None, help="the course key of the release")
    parser.add_argument("--out", default=os.path.join(ROOT, "_build", "grading", "rubrics"))
    parser.add_argument("--chapters", nargs="*", default=None,
                        help="assignment ids (ch01 ...); default: all")
    args = parser.parse_args(argv)
    key, paths = write_sheets(read_roster(args.roster), args.out, args.key, args.chapters)
    print(f"{len(paths) // 2} rubric sheets written to {os.path.abspath(args.out)}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
