"""Helpers shared by the book's chapters (not needed to use the metrics).

* :func:`binormal_roc`: the ROC curve of two unit-variance normal classes.
* :class:`PlotlyFigure`: shows a plotly figure in Jupyter *and* in the
  static HTML book, with a fixed element id so that stored outputs are
  deterministic, and without embedding plotly.js (the book serves it once).
* :func:`roc_kappa_explorer`: ROC and kappa curves side by side with a
  slider for the class share p (and optionally a second for the separation).
  In the HTML book, ``static/explorers.js`` (served by builders/book_html.py)
  gives every slider a keyboard control and the readout an aria-live text.
"""

import json
from html import escape

import numpy as np
from scipy.stats import norm

from auklib.kappa import _kappa_rates

__all__ = [
    "binormal_roc", "binormal_auk", "PlotlyFigure", "roc_kappa_explorer",
    "rate_grid", "assert_formula_matches", "skewed_breast_cancer", "iso_kappa_explorer",
    "described_figure_html", "EXPLORER_SHARES",
]

#: Class shares for the explorers' p slider, from rare positives (left) to
#: balanced classes (right), denser where kappa changes fastest.
EXPLORER_SHARES = (0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4,
                   0.45, 0.5)


def binormal_roc(separation, fpr, sigma=1.0):
    """True positive rate of the binormal model at false positive rate(s) ``fpr``.

    Negatives score N(0, 1) and positives N(d, sigma^2); thresholding at c
    gives f = 1 - Phi(c) and t = 1 - Phi((c - d) / sigma), so
    t = Phi((d + Phi^-1(f)) / sigma).  Its AUC is Phi(d / sqrt(1 + sigma^2)).

    Examples
    --------
    >>> from aukbook.plotting import binormal_roc
    >>> round(float(binormal_roc(0.0, 0.3)), 12)  # d = 0: the diagonal
    0.3
    >>> round(float(binormal_roc(1.0, 0.5)), 4)
    0.8413
    """
    f = np.asarray(fpr, dtype=np.float64)
    return norm.sf((norm.isf(f) - separation) / sigma)


def binormal_auk(separation, prevalence, sigma=1.0):
    """AUK of the binormal ROC curve with separation d and spread sigma at class share p.

    The exact integral along a piecewise-linear version of the curve with
    vertices at 40,001 thresholds spread evenly over both score
    distributions, so that every part of the curve is sampled densely
    whatever its shape; the error is below 1e-8.

    Examples
    --------
    >>> from aukbook.plotting import binormal_auk
    >>> round(binormal_auk(1.5, 0.5), 6)  # AUC - 1/2 = Phi(1.5 / sqrt 2) - 1/2
    0.355578
    """
    from auklib.curves import auk_from_roc

    lo = min(-9.0, separation - 9.0 * sigma)
    hi = max(9.0, separation + 9.0 * sigma)
    c = np.linspace(hi, lo, 40001)
    f = np.concatenate(([0.0], norm.sf(c), [1.0]))
    t = np.concatenate(([0.0], norm.sf((c - separation) / sigma), [1.0]))
    return auk_from_roc(f, t, prevalence, method="exact")


class PlotlyFigure:
    """Display wrapper: plotly JSON for Jupyter, an HTML div for the book.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    div_id : str
        Fixed id of the HTML element; keeps stored outputs identical run to
        run (plotly otherwise draws a random one).
    alt : str, default=None
        Text description for screen readers.  A plotly figure is a ``div``,
        not an ``<img>``, so the ``alt`` text of a notebook cell's metadata
        never reaches it.  With ``alt`` the figure is preceded by a visually
        hidden paragraph with that text (see :func:`described_figure_html`),
        which is part of the page's text (screen readers, search, copy,
        text-only browsers).  It is not a ``role="img"`` wrapper: that role
        would hide the figure's controls (the explorers' sliders) from
        assistive technology while they stay focusable.  Without it the HTML
        is plotly's own, unchanged (the book's Sphinx extension adds the
        cell's alt text at build time).  The attribute may also be set after
        construction (``shown.alt = "..."``), for example on
        ``WithPreview(...).inner``.
    config : dict, default=None
        Entries that override plotly's display options for this figure, on
        top of ``{"responsive": True, "displaylogo": False}``; for example
        ``{"displayModeBar": False}`` when plotly's toolbar, drawn over the
        top right corner, would cover a panel's title.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1]))
    >>> shown = PlotlyFigure(fig, "demo", alt='A "rising" line')
    >>> html = shown._repr_mimebundle_()["text/html"]
    >>> html.startswith('<div class="aukbook-figure"><p id="demo-desc"')
    True
    >>> 'role="img"' in html, 'Interactive figure. A "rising" line</p>' in html
    (False, True)
    >>> plain = PlotlyFigure(fig, "demo")._repr_mimebundle_()["text/html"]
    >>> plain == fig.to_html(full_html=False, include_plotlyjs=False, div_id="demo",
    ...                      config={"responsive": True, "displaylogo": False})
    True
    >>> bare = PlotlyFigure(fig, "demo", config={"displayModeBar": False})
    >>> '"displayModeBar": false' in bare._repr_mimebundle_()["text/html"]
    True
    """

    def __init__(self, fig, div_id, alt=None, config=None):
        self.fig = fig
        self.div_id = div_id
        self.alt = alt
        self.config = {"responsive": True, "displaylogo": False, **(config or {})}

    def _repr_mimebundle_(self, include=None, exclude=None):
        html = self.fig.to_html(
            full_html=False, include_plotlyjs=False, div_id=self.div_id,
            config=self.config,
        )
        if self.alt:
            html = described_figure_html(html, self.div_id, self.alt)
        return {
            "application/vnd.plotly.v1+json": json.loads(self.fig.to_json()),
            "text/html": html,
            "text/plain": f"<plotly figure {self.div_id}>",
        }


# visually hidden, still read by screen readers (the usual sr-only rule)
_SR_ONLY = ("position:absolute;width:1px;height:1px;padding:0;margin:-1px;"
            "overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0;")


def described_figure_html(html, div_id, text):
    """A figure's HTML preceded by its text description, for screen readers only.

    ``<div class="aukbook-figure"><p id="{div_id}-desc" ...>Interactive
    figure. {text}</p>{html}</div>``: the paragraph is visually hidden but
    read in order before the figure, whose controls stay operable (the
    book's explorers.js links them to it with ``aria-describedby``).  Used
    by :class:`PlotlyFigure` and, for figures stored without it, by the
    book's Sphinx extension (builders/book_html.py).

    >>> html = described_figure_html("<div>plot</div>", "f", "Two <b>curves</b>")
    >>> html[:60]
    '<div class="aukbook-figure"><p id="f-desc" class="aukbook-fi'
    >>> html.endswith("Interactive figure. Two &lt;b&gt;curves&lt;/b&gt;</p><div>plot</div></div>")
    True
    """
    text = escape(" ".join(str(text).split()), quote=False)
    return (f'<div class="aukbook-figure"><p id="{div_id}-desc" class="aukbook-figure-desc" '
            f'style="{_SR_ONLY}">Interactive figure. {text}</p>{html}</div>')


def _round(x, digits=5):
    return np.round(np.asarray(x, dtype=np.float64), digits)


def _explorer_curves(p, d, f):
    t = binormal_roc(d, f)
    kappa = _kappa_rates(t, f, p)
    i = int(np.argmax(kappa))
    return t, kappa, i


def roc_kappa_explorer(prevalences, separations=(1.5,), *, n_points=121, title=None,
                       readout=False, active=(0, 0)):
    """ROC curve and kappa curve side by side with precomputed slider steps.

    Moving the p slider changes the kappa curve (and its optimum, the red
    dot) while the ROC curve stays put, the book's main point.  With several
    separations d a second slider changes the classifier.  The steps are
    precomputed, so the figure works in static HTML without a kernel: the p
    slider switches which traces are visible, the d slider replaces the data
    of every trace, so the two act independently.

    Parameters
    ----------
    prevalences : sequence of float
        Class shares p for the slider, each in (0, 1).  The slider shows them
        in increasing order, the rarest positives at its left end (for
        example :data:`EXPLORER_SHARES`).
    separations : sequence of float, default=(1.5,)
        Binormal separations d.
    n_points : int, default=121
        Points per curve.
    title : str, default=None
        Fixed title.  With one separation (and ``readout=False``) the default
        title reports AUC, AUK and the maximum kappa, and follows the p slider.
    readout : bool, default=False
        Write AUC, AUK and the maximum kappa (located to about 1e-7, not on
        the plotting grid) inside the kappa panel, for the current p *and* d:
        one text trace per p, shown by the p slider, whose text the d slider
        replaces with that of every trace.  The red dots then mark the same
        precise optimum, and the ROC panel adds the iso-kappa line of the
        maximum kappa (dashed), which touches the ROC curve at the red dot.
    active : pair of int, default=(0, 0)
        Index (into the sequences as given) of the starting class share and
        of the starting separation.

    Returns
    -------
    fig : plotly.graph_objects.Figure

    Examples
    --------
    >>> from aukbook.plotting import roc_kappa_explorer
    >>> fig = roc_kappa_explorer([0.5, 0.1], separations=[1.5, 2.0], readout=True,
    ...                          active=(1, 0))
    >>> [tr.text[0].replace("<br>", "; ") for tr in fig.data
    ...  if tr.mode == "text" and tr.visible]
    ['p = 0.1, d = 1.5; AUC = 0.856; AUK = 0.173; max kappa = 0.415 at f = 0.062']
    >>> [step.label for step in fig.layout.sliders[0].steps]   # small p on the left
    ['0.1', '0.5']
    >>> d_step = fig.layout.sliders[1].steps[1]   # d = 2: new text for every trace
    >>> d_step.args[0]["text"][-1][0].split("<br>")[0]
    'p = 0.5, d = 2'
    """
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    from .optimum import binormal_max_kappa

    def readout_text(p, d):
        auc = float(norm.cdf(d / np.sqrt(2.0)))
        k, f_opt, _ = binormal_max_kappa(d, p)
        return (f"p = {p:g}, d = {d:g}<br>AUC = {auc:.3f}<br>AUK = {binormal_auk(d, p):.3f}"
                f"<br>max kappa = {k:.3f} at f = {f_opt:.3f}")

    kp, kd = active
    if not (0 <= kp < len(prevalences) and 0 <= kd < len(separations)):
        raise ValueError(f"active={active!r} is not a valid pair of slider indices.")
    start = float(prevalences[kp])
    prevalences = sorted(float(p) for p in prevalences)   # small p at the slider's left
    kp = prevalences.index(start)
    f = np.unique(np.concatenate(([0.0], np.geomspace(1e-4, 1.0, n_points - 1))))
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12,
                        subplot_titles=("ROC curve", "Kappa curve"))

    def tangent(p, d):
        """Two points of the iso-kappa line of the largest kappa, inside the square."""
        k, _, _ = binormal_max_kappa(d, p)
        t0 = iso_kappa_tpr(k, 0.0, p)
        slope = iso_kappa_tpr(k, 1.0, p) - t0  # the line is straight
        f1 = min(1.0, (1 - t0) / slope)
        return [0.0, round(f1, 4)], [round(t0, 4), round(t0 + slope * f1, 4)]

    def optimum(p, d):
        """(f, t, kappa) of the red dots; precise when there is a readout."""
        t, kappa, i = _explorer_curves(p, d, f)
        if readout:
            k, f_opt, t_opt = binormal_max_kappa(d, p)
            return round(f_opt, 4), round(t_opt, 4), round(k, 4)
        return round(f[i], 4), round(float(t[i]), 4), round(float(kappa[i]), 4)

    d0 = separations[kd]
    fig.add_trace(go.Scatter(x=_round(f), y=_round(binormal_roc(d0, f)), mode="lines",
                             line=dict(color="#1f77b4", width=3), name="ROC",
                             hovertemplate="f=%{x:.3f}<br>t=%{y:.3f}"), 1, 1)
    texts = []
    for k, p in enumerate(prevalences):
        t, kappa, i = _explorer_curves(p, d0, f)
        fo, to, ko = optimum(p, d0)
        visible = k == kp
        fig.add_trace(go.Scatter(x=_round(f), y=_round(kappa), mode="lines", visible=visible,
                                 line=dict(color="#ff7f0e", width=3), name="kappa",
                                 hovertemplate="f=%{x:.3f}<br>kappa=%{y:.3f}"), 1, 2)
        fig.add_trace(go.Scatter(x=[fo], y=[to], mode="markers",
                                 visible=visible, marker=dict(color="#d62728", size=11),
                                 name="max kappa", hovertemplate="kappa-optimal point"), 1, 1)
        fig.add_trace(go.Scatter(x=[fo], y=[ko],
                                 mode="markers", visible=visible,
                                 marker=dict(color="#d62728", size=11), name="max kappa",
                                 hovertemplate="max kappa = %{y:.3f}"), 1, 2)
        if readout:
            xt, yt = tangent(p, d0)
            fig.add_trace(go.Scatter(x=xt, y=yt, mode="lines", visible=visible,
                                     line=dict(color="#ff7f0e", width=2, dash="dash"),
                                     name="iso-kappa line", hoverinfo="skip"), 1, 1)
            fig.add_trace(go.Scatter(x=[0.97], y=[0.97], mode="text", visible=visible,
                                     text=[readout_text(p, d0)], textposition="bottom left",
                                     textfont=dict(size=13), hoverinfo="skip",
                                     name="readout"), 1, 2)
        auc = float(norm.cdf(d0 / np.sqrt(2.0)))
        texts.append(f"p = {p:g}, d = {d0:g}: AUC = {auc:.3f}, AUK = {binormal_auk(d0, p):.3f}, "
                     f"max kappa = {kappa[i]:.3f} at f = {f[i]:.3f}")
    per = 5 if readout else 3
    p_steps = []
    for k, p in enumerate(prevalences):
        vis = [True] + [False] * (per * len(prevalences))
        vis[1 + per * k: 1 + per * (k + 1)] = [True] * per
        args = [{"visible": vis}]
        if len(separations) == 1 and title is None and not readout:
            args.append({"title.text": texts[k]})
            method = "update"
        else:
            method = "restyle"
        p_steps.append(dict(method=method, label=f"{p:g}", args=args))
    sliders = [dict(active=kp, currentvalue=dict(prefix="class share p = "), pad=dict(t=50),
                    steps=p_steps)]
    if len(separations) > 1:
        d_steps = []
        for d in separations:
            xs, ys = [_round(f).tolist()], [_round(binormal_roc(d, f)).tolist()]
            labels = [""]
            for p in prevalences:
                t, kappa, i = _explorer_curves(p, d, f)
                fo, to, ko = optimum(p, d)
                xs += [_round(f).tolist(), [fo], [fo]]
                ys += [_round(kappa).tolist(), [to], [ko]]
                labels += ["", "", ""]
                if readout:
                    xt, yt = tangent(p, d)
                    xs += [xt, [0.97]]
                    ys += [yt, [0.97]]
                    labels += ["", [readout_text(p, d)]]
            args = {"x": xs, "y": ys}
            if readout:
                args["text"] = labels
            d_steps.append(dict(method="restyle", label=f"{d:g}", args=[args]))
        sliders.append(dict(active=kd, currentvalue=dict(prefix="separation d = "),
                            pad=dict(t=120), steps=d_steps))
    fig.add_shape(type="line", x0=0, y0=0, x1=1, y1=1, line=dict(dash="dash", color="grey"),
                  row=1, col=1)
    fig.add_shape(type="line", x0=0, y0=0, x1=1, y1=0, line=dict(dash="dash", color="grey"),
                  row=1, col=2)
    fig.update_xaxes(title_text="false positive rate f", range=[0, 1])
    fig.update_yaxes(title_text="true positive rate t", range=[0, 1.02], row=1, col=1)
    fig.update_yaxes(title_text="Cohen's kappa", range=[-0.05, 1.0], row=1, col=2)
    if readout:
        head = dict(text=title, font=dict(size=14)) if title else None
        top = 80 if title else 40
    else:
        head = dict(text=title or texts[kp], font=dict(size=14))
        top = 80
    fig.update_layout(
        title=head,
        showlegend=False, height=470 + 80 * (len(separations) > 1),
        margin=dict(t=top, b=40, l=60, r=20), sliders=sliders, template="plotly_white",
    )
    return fig


def rate_grid(n=400, seed=0, p_range=(0.005, 0.995)):
    """Random points (t, f, p) for checking formulas: t, f in [0, 1], p inside p_range.

    The corners (0, 0), (1, 1), (0, 1), (1, 0) are included for every p.
    """
    rng = np.random.default_rng(seed)
    t = np.concatenate((rng.random(n), [0, 1, 1, 0]))
    f = np.concatenate((rng.random(n), [0, 1, 0, 1]))
    p = rng.uniform(*p_range, size=n + 4)
    return t, f, p


def assert_formula_matches(expr, symbols, values, expected, *, atol=1e-12):
    """Lambdify a SymPy expression, evaluate it on arrays, compare with ``expected``.

    Returns the largest absolute difference, so that a notebook can print it.
    """
    import sympy as sp

    func = sp.lambdify(symbols, expr, modules="numpy")
    got = np.broadcast_to(np.asarray(func(*values), dtype=np.float64), np.shape(expected))
    diff = float(np.max(np.abs(got - np.asarray(expected, dtype=np.float64))))
    assert diff <= atol, f"formula differs from the reference by {diff:.3g} > {atol:g}"
    return diff


def skewed_breast_cancer(positive_share=0.1, seed=0):
    """scikit-learn's breast cancer data with malignant cases as the rare class.

    The data ship with scikit-learn (569 cases, 212 malignant).  Malignant
    cases are the positives (label 1); a random subset of them is deleted
    until they make up ``positive_share`` of the data, the way Kaymak et al.
    skewed the German credit data.

    Returns
    -------
    X : ndarray of shape (n_samples, 30)
    y : ndarray of shape (n_samples,), 1 = malignant

    Examples
    --------
    >>> from aukbook.plotting import skewed_breast_cancer
    >>> X, y = skewed_breast_cancer(0.1)
    >>> X.shape, int(y.sum())
    ((397, 30), 40)
    """
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer()
    y_all = (data.target == 0).astype(int)  # target 0 is malignant
    neg = np.flatnonzero(y_all == 0)
    pos = np.flatnonzero(y_all == 1)
    n_pos = int(round(positive_share * len(neg) / (1 - positive_share)))
    if not 0 < n_pos <= len(pos):
        raise ValueError(f"positive_share={positive_share} cannot be reached by deleting positives.")
    keep_pos = np.random.default_rng(seed).choice(pos, size=n_pos, replace=False)
    idx = np.sort(np.concatenate((neg, keep_pos)))
    return data.data[idx], y_all[idx]


def iso_kappa_tpr(kappa, f, p):
    """The iso-kappa line t(f) for any f (also outside ROC space), no checks.

    Solving eq. (19) for t gives t = f + kappa (p + (1-2p) f) / (p (2(1-p) - kappa (1-2p))):
    t - f vanishes where p + (1-2p) f = 0, so every line passes through the
    pivot f = t = -p / (1 - 2p).  Inside ROC space ``auklib.tpr_from_kappa``
    gives the same line with its inputs checked; the figures need it beyond.

    >>> from auklib import tpr_from_kappa
    >>> bool(abs(iso_kappa_tpr(0.5, 0.02, 0.05) - tpr_from_kappa(0.5, 0.02, 0.05)) < 1e-12)
    True
    >>> float(iso_kappa_tpr(0.3, -0.125, 0.1))  # the pivot for p = 0.1
    -0.125
    """
    q = 1.0 - 2.0 * p
    return f + kappa * (p + q * f) / (p * (2.0 * (1.0 - p) - kappa * q))


def _iso_line_exit(kappa, p, lo):
    """Where the iso-kappa line leaves the view [lo, 1] x [lo, 1] at the top or right.

    Returns (f, t, side) with side "top" (t = 1) or "right" (f = 1).
    """
    t_right = float(iso_kappa_tpr(kappa, 1.0, p))
    if t_right <= 1.0:
        return 1.0, t_right, "right"
    # t is linear in f: interpolate between f = lo and f = 1 for t = 1
    t_lo = float(iso_kappa_tpr(kappa, lo, p))
    f_top = lo + (1.0 - t_lo) * (1.0 - lo) / (t_right - t_lo)
    return f_top, 1.0, "top"


def _spread_labels(candidates, min_gap):
    """Keep the labels (x, y, ...) that lie at least ``min_gap`` from every kept one."""
    kept = []
    for c in candidates:
        if all(np.hypot(c[0] - k[0], c[1] - k[1]) >= min_gap for k in kept):
            kept.append(c)
    return kept


def iso_kappa_explorer(prevalences, separation=1.5, *, levels=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7),
                       view=-0.4, start=None, n_points=201):
    """ROC curve, iso-kappa lines and the tangent one, one slider step per class share.

    Every line of constant kappa passes through the pivot f = t = -p/(1-2p)
    (for p < 1/2 below and left of ROC space; for p = 1/2 the lines are
    parallel).  The kappa-optimal point is where such a line touches the ROC
    curve.  Each step draws the grey iso-kappa lines for ``levels`` from the
    pivot (or the edge of the view) to where they leave the unit square, each
    labelled there with its kappa where the labels do not overlap (and every
    line carries its kappa as its tooltip); the tangent line in orange and the
    optimal point, labelled with the maximum kappa; and the pivot, or a note
    on where it lies when it falls outside the view.  The axes are fixed, so
    the ROC square keeps its size while the pivot moves.

    Parameters
    ----------
    prevalences : sequence of float
        Class shares p for the slider, each in (0, 1/2].  The slider shows
        them in increasing order, the rarest positives at its left end.
    separation : float, default=1.5
        Binormal separation d of the classifier.
    levels : sequence of float, default=(0.1, ..., 0.7)
        Kappas of the grey iso-kappa lines, in increasing order.
    view : float, default=-0.4
        Lower end of both axes: the view is [view, 1] in f and t plus room
        for the labels.
    start : float, default=None
        The class share shown first (one of ``prevalences``); None means the
        first.
    n_points : int, default=201
        Points of the plotted ROC curve (the optimum is found on a finer grid).

    Returns
    -------
    fig : plotly.graph_objects.Figure

    Examples
    --------
    >>> from aukbook.plotting import iso_kappa_explorer
    >>> fig = iso_kappa_explorer([0.5, 0.1])
    >>> len(fig.data), [step.label for step in fig.layout.sliders[0].steps]
    (10, ['0.1', '0.5'])
    >>> fig.data[2].x[0], fig.data[2].y[0]   # p = 0.1: the lines start at the pivot
    (-0.125, -0.125)
    >>> fig = iso_kappa_explorer([0.5, 0.1], start=0.5)   # show p = 0.5 first
    >>> fig.layout.sliders[0].active, fig.data[2].visible, fig.data[6].visible
    (1, False, True)
    """
    import plotly.graph_objects as go

    prevalences = sorted(float(p) for p in prevalences)   # small p at the slider's left
    if any(not 0.0 < p <= 0.5 for p in prevalences):
        raise ValueError("prevalences must lie in (0, 1/2].")
    if start is not None and float(start) not in prevalences:
        raise ValueError("start must be one of prevalences.")
    k0 = 0 if start is None else prevalences.index(float(start))
    lo = float(view)
    f = np.unique(np.concatenate(([0.0], np.geomspace(1e-4, 1.0, n_points - 1))))
    t = binormal_roc(separation, f)
    fine = np.linspace(0.0, 1.0, 200_001)
    t_fine = binormal_roc(separation, fine)
    grey, orange, red = "#8c8c8c", "#ff7f0e", "#d62728"
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=_round(f), y=_round(t), mode="lines",
                             name=f"ROC curve, d = {separation:g}",
                             line=dict(color="#1f77b4", width=3),
                             hovertemplate="f=%{x:.3f}<br>t=%{y:.3f}<extra>ROC</extra>"))
    fig.add_trace(go.Scatter(x=[lo, 1.0], y=[lo, 1.0], mode="lines", name="diagonal (kappa = 0)",
                             line=dict(color="grey", dash="dot", width=1), hoverinfo="skip"))

    def label(x, y, text, side, color="#444444"):
        return dict(x=round(x, 4), y=round(y, 4), text=text, showarrow=False,
                    xanchor="center" if side == "top" else "left",
                    yanchor="bottom" if side == "top" else "middle",
                    font=dict(size=12, color=color), bgcolor="rgba(255,255,255,0.85)",
                    borderpad=1)

    per, steps = 4, []
    for k, p in enumerate(prevalences):
        kappa = _kappa_rates(t_fine, fine, p)
        i = int(np.argmax(kappa))
        f_opt, t_opt, k_opt = float(fine[i]), float(t_fine[i]), float(kappa[i])
        balanced = abs(1.0 - 2.0 * p) < 1e-12
        pivot = None if balanced else -p / (1.0 - 2.0 * p)
        xs, ys, hover, candidates = [], [], [], []
        for level in list(levels) + [k_opt]:
            if balanced:
                x0, y0 = lo - level, lo
                ex, ey, side = 1.0 - level, 1.0, "top"
            else:
                x0, y0 = pivot, pivot
                ex, ey, side = _iso_line_exit(level, p, lo)
            if level == k_opt:
                tangent = ([x0, ex], [y0, ey])
                continue
            # 25 points per line, so that hovering anywhere along it shows its kappa
            xs += list(np.linspace(x0, ex, 25)) + [None]
            ys += list(np.linspace(y0, ey, 25)) + [None]
            hover += [f"kappa = {level:g}"] * 25 + [None]
            candidates.append((ex, ey, f"{level:g}", side))
        annotations = [label(x, y, text, side)
                       for x, y, text, side in _spread_labels(candidates, 0.075)]
        annotations.append(dict(x=round(f_opt, 4), y=round(t_opt, 4), ax=45, ay=40,
                                text=f"max kappa = {k_opt:.3f}", showarrow=True,
                                arrowhead=0, arrowcolor=orange, xanchor="left",
                                font=dict(size=13, color=orange),
                                bgcolor="rgba(255,255,255,0.9)"))
        if pivot is not None and pivot >= lo:
            annotations.append(dict(x=round(pivot, 4), y=round(pivot, 4), ax=40, ay=25,
                                    text=f"pivot ({pivot:.3f}, {pivot:.3f})",
                                    showarrow=True, arrowhead=0, xanchor="left",
                                    font=dict(size=12), bgcolor="rgba(255,255,255,0.9)"))
            px = [round(pivot, 4)]
        else:
            note = ("p = 1/2: no pivot,<br>the iso-kappa lines are parallel" if pivot is None
                    else f"the iso-kappa lines meet at the pivot<br>({pivot:.2f}, {pivot:.2f}), "
                         "outside the view")
            annotations.append(dict(x=lo + 0.02, y=1.0, text=note, showarrow=False,
                                    xanchor="left", yanchor="top", align="left",
                                    font=dict(size=12), bgcolor="rgba(255,255,255,0.9)"))
            px = []
        vis = k == k0
        fig.add_trace(go.Scatter(x=[None if v is None else round(float(v), 4) for v in xs],
                                 y=[None if v is None else round(float(v), 4) for v in ys],
                                 text=hover, mode="lines", visible=vis, name="iso-kappa lines",
                                 line=dict(color=grey, width=1),
                                 hovertemplate="%{text}<extra></extra>"))
        fig.add_trace(go.Scatter(x=_round(tangent[0], 4), y=_round(tangent[1], 4),
                                 mode="lines", visible=vis, name="tangent iso-kappa line",
                                 line=dict(color=orange, width=2.5),
                                 hovertemplate=f"kappa = {k_opt:.3f}<extra>tangent</extra>"))
        fig.add_trace(go.Scatter(x=[round(f_opt, 4)], y=[round(t_opt, 4)], mode="markers",
                                 visible=vis, name="kappa-optimal point",
                                 marker=dict(color=red, size=11),
                                 hovertemplate="f=%{x:.3f}<br>t=%{y:.3f}<extra>optimum</extra>"))
        fig.add_trace(go.Scatter(x=px, y=px, mode="markers", visible=vis, name="pivot",
                                 marker=dict(color="black", size=10, symbol="x"),
                                 hoverinfo="skip"))
        vis_all = [True, True] + [False] * (per * len(prevalences))
        vis_all[2 + per * k: 2 + per * (k + 1)] = [True] * per
        steps.append(dict(method="update", label=f"{p:g}", args=[
            {"visible": vis_all},
            {"title.text": f"p = {p:g}: best f = {f_opt:.3f}, t = {t_opt:.3f}, "
                           f"kappa = {k_opt:.3f}",
             "annotations": annotations}]))
    fig.add_shape(type="rect", x0=0, y0=0, x1=1, y1=1, line=dict(color="black", width=1),
                  layer="below")
    fig.update_layout(
        title=dict(text=steps[k0]["args"][1]["title.text"], font=dict(size=14), x=0.02,
                   xanchor="left", y=0.985, yanchor="top"),
        annotations=steps[k0]["args"][1]["annotations"],
        xaxis=dict(title="false positive rate f", range=[lo, 1.12], constrain="domain"),
        yaxis=dict(title="true positive rate t", range=[lo, 1.1], scaleanchor="x",
                   constrain="domain"),
        height=700, showlegend=True, template="plotly_white",
        legend=dict(x=0.99, y=0.02, xanchor="right", yanchor="bottom",
                    bgcolor="rgba(255,255,255,0.85)"),
        sliders=[dict(active=k0, currentvalue=dict(prefix="class share p = "), pad=dict(t=40),
                      steps=steps)],
        margin=dict(t=70, l=60, r=20, b=40),
    )
    return fig
