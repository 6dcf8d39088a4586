"""Helpers shared by the book's chapters (not needed to use the metrics).

* :func:`binormal_roc`: the ROC curve of two unit-variance normal classes.
* :class:`PlotlyFigure`: shows a plotly figure in Jupyter *and* in the
  static HTML book, with a fixed element id so that stored outputs are
  deterministic, and without embedding plotly.js (the book serves it once).
* :func:`roc_kappa_explorer`: ROC and kappa curves side by side with a
  slider for the class share p (and optionally a second for the separation).
"""

import json

import numpy as np
from scipy.stats import norm

from .kappa import _kappa_rates

__all__ = ["binormal_roc", "binormal_auk", "PlotlyFigure", "roc_kappa_explorer"]

# A grid in f that is dense near 0, where kappa changes fastest.
_FINE_F = np.unique(np.concatenate(([0.0], np.geomspace(1e-8, 1.0, 6000))))


def binormal_roc(separation, fpr):
    """True positive rate of the binormal model at false positive rate(s) ``fpr``.

    Negatives score N(0, 1) and positives N(d, 1); thresholding at c gives
    f = 1 - Phi(c) and t = 1 - Phi(c - d), so t = Phi(d + Phi^-1(f)).  Its
    AUC is Phi(d / sqrt(2)).

    Examples
    --------
    >>> from auklib.book import binormal_roc
    >>> round(float(binormal_roc(0.0, 0.3)), 12)  # d = 0: the diagonal
    0.3
    >>> round(float(binormal_roc(1.0, 0.5)), 4)
    0.8413
    """
    f = np.asarray(fpr, dtype=np.float64)
    return norm.sf(norm.isf(f) - separation)


def binormal_auk(separation, prevalence):
    """AUK of the binormal ROC curve with separation d at class share p.

    The exact integral along a fine piecewise-linear version of the curve
    (6000 vertices, dense near f = 0); accurate to about 1e-7.

    Examples
    --------
    >>> from auklib.book import binormal_auk
    >>> round(binormal_auk(1.5, 0.5), 4)  # AUC - 1/2 = Phi(1.5 / sqrt 2) - 1/2
    0.3556
    """
    from .curves import auk_from_roc

    return auk_from_roc(_FINE_F, binormal_roc(separation, _FINE_F), prevalence, method="exact")


class PlotlyFigure:
    """Display wrapper: plotly JSON for Jupyter, an HTML div for the book.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    div_id : str
        Fixed id of the HTML element; keeps stored outputs identical run to
        run (plotly otherwise draws a random one).
    """

    def __init__(self, fig, div_id):
        self.fig = fig
        self.div_id = div_id

    def _repr_mimebundle_(self, include=None, exclude=None):
        html = self.fig.to_html(
            full_html=False, include_plotlyjs=False, div_id=self.div_id,
            config={"responsive": True, "displaylogo": False},
        )
        return {
            "application/vnd.plotly.v1+json": json.loads(self.fig.to_json()),
            "text/html": html,
            "text/plain": f"<plotly figure {self.div_id}>",
        }


def _round(x, digits=5):
    return np.round(np.asarray(x, dtype=np.float64), digits)


def roc_kappa_explorer(prevalences, separations=(1.5,), *, n_points=121, title=None):
    """ROC curve and kappa curve side by side with precomputed slider steps.

    One slider step per (p, d) pair: moving the p slider changes the kappa
    curve (and its optimum) while the ROC curve stays put, the book's main
    point.  With several separations a second slider selects d.  The steps
    are precomputed, so the figure works in static HTML without a kernel.

    Parameters
    ----------
    prevalences : sequence of float
        Class shares p for the slider, each in (0, 1).
    separations : sequence of float, default=(1.5,)
        Binormal separations d.
    n_points : int, default=121
        Points per curve.
    title : str, default=None

    Returns
    -------
    fig : plotly.graph_objects.Figure
    """
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    # denser near f = 0 where kappa changes fastest
    f = np.unique(np.concatenate(([0.0], np.geomspace(1e-4, 1.0, n_points - 1))))
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12,
                        subplot_titles=("ROC curve", "Kappa curve"))
    combos = [(p, d) for d in separations for p in prevalences]
    labels = []
    for k, (p, d) in enumerate(combos):
        t = binormal_roc(d, f)
        kappa = _kappa_rates(t, f, p)
        i = int(np.argmax(kappa))
        auc = float(norm.cdf(d / np.sqrt(2.0)))
        auk = binormal_auk(d, p)
        visible = k == 0
        name = f"p = {p:g}, d = {d:g}"
        fig.add_trace(go.Scatter(x=_round(f), y=_round(t), mode="lines", visible=visible,
                                 line=dict(color="#1f77b4", width=3), name="ROC",
                                 hovertemplate="f=%{x:.3f}<br>t=%{y:.3f}"), 1, 1)
        fig.add_trace(go.Scatter(x=[round(f[i], 4)], y=[round(float(t[i]), 4)], mode="markers",
                                 visible=visible, marker=dict(color="#d62728", size=11),
                                 name="max kappa", hovertemplate="kappa-optimal point"), 1, 1)
        fig.add_trace(go.Scatter(x=_round(f), y=_round(kappa), mode="lines", visible=visible,
                                 line=dict(color="#ff7f0e", width=3), name="kappa",
                                 hovertemplate="f=%{x:.3f}<br>kappa=%{y:.3f}"), 1, 2)
        fig.add_trace(go.Scatter(x=[round(f[i], 4)], y=[round(float(kappa[i]), 4)],
                                 mode="markers", visible=visible,
                                 marker=dict(color="#d62728", size=11), name="max kappa",
                                 hovertemplate="max kappa = %{y:.3f}"), 1, 2)
        labels.append((name, f"{name}: AUC = {auc:.3f}, AUK = {auk:.3f}, "
                             f"max kappa = {kappa[i]:.3f} at f = {f[i]:.3f}"))
    per = 4
    n_traces = per * len(combos)
    steps = []
    for k, (name, text) in enumerate(labels):
        vis = [False] * n_traces
        vis[per * k: per * (k + 1)] = [True] * per
        p, d = combos[k]
        steps.append(dict(method="update", label=f"{p:g}" if len(separations) == 1 else name,
                          args=[{"visible": vis}, {"title.text": text}]))
    fig.add_shape(type="line", x0=0, y0=0, x1=1, y1=1, line=dict(dash="dash", color="grey"),
                  row=1, col=1)
    fig.add_shape(type="line", x0=0, y0=0, x1=1, y1=0, line=dict(dash="dash", color="grey"),
                  row=1, col=2)
    fig.update_xaxes(title_text="false positive rate f", range=[0, 1])
    fig.update_yaxes(title_text="true positive rate t", range=[0, 1.02], row=1, col=1)
    fig.update_yaxes(title_text="Cohen's kappa", range=[-0.05, 1.0], row=1, col=2)
    fig.update_layout(
        title=dict(text=title or labels[0][1], font=dict(size=14)),
        showlegend=False, height=470, margin=dict(t=80, b=40, l=60, r=20),
        sliders=[dict(active=0, currentvalue=dict(prefix="class share p = " if len(separations) == 1
                                                  else "p, d: "),
                      pad=dict(t=50), steps=steps)],
        template="plotly_white",
    )
    return fig
