"""Random families for the book's general statements ("always", "never").

A chapter shows the reader a small search over one of these families in a
folded cell; the test of the same statement (``tests/claims/``) runs a
larger one.  Both draw from the same family, defined once here.

* :func:`random_roc_curve`: ROC polylines from (0, 0) to (1, 1), concave and
  not, above and below the diagonal (chapter 5).
* :func:`random_forecasts`: probability forecasts with outcomes, ties and
  values on bin edges included (chapter 14).
* :func:`random_scored_data`: labels and scores in (0, 1) of classifiers of
  any quality and class share, ties included (chapter 14).
* :func:`random_discrete_population`: a population with a feature of a few
  values, its class-conditional distributions and class share (chapter 14).
"""

import numpy as np

__all__ = ["random_roc_curve", "random_forecasts", "random_scored_data",
           "random_discrete_population"]


def random_roc_curve(rng):
    """A random ROC polyline ``(f, t)`` from (0, 0) to (1, 1), of one of four kinds.

    An arbitrary monotone polyline (dents, crossings of the diagonal); the
    staircase of random scores; a concave curve (the hull of a random one);
    or a few points far from concave (a sharp dent, steep end segments).

    >>> f, t = random_roc_curve(np.random.default_rng(0))
    >>> [float(v) for v in (f[0], t[0], f[-1], t[-1])]
    [0.0, 0.0, 1.0, 1.0]
    >>> bool(np.all(np.diff(f) >= 0) and np.all(np.diff(t) >= 0))
    True
    """
    from auklib import roc_convex_hull

    kind = rng.integers(4)
    n = int(rng.integers(2, 40))
    if kind == 0:  # arbitrary monotone polyline: dents, crossings of the diagonal
        f = np.concatenate([[0], np.cumsum(rng.dirichlet(np.ones(n)))])
        t = np.concatenate([[0], np.cumsum(rng.dirichlet(np.ones(n)))])
    elif kind == 1:  # an empirical ROC curve of random scores (staircase)
        m = int(rng.integers(5, 200))
        y = rng.random(m) < rng.uniform(0.05, 0.95)
        y[:2] = [True, False]
        s = rng.normal(size=m) + rng.normal(0, 2) * y
        order = np.argsort(-s, kind="stable")
        tp = np.concatenate([[0], np.cumsum(y[order])])
        fp = np.concatenate([[0], np.cumsum(~y[order])])
        f, t = fp / fp[-1], tp / tp[-1]
    elif kind == 2:  # a concave curve: the hull of a random one
        f = np.concatenate([[0], np.cumsum(rng.dirichlet(np.ones(n)))])
        t = np.concatenate([[0], np.cumsum(rng.dirichlet(np.ones(n)))])
        f, t = roc_convex_hull(np.clip(f, 0, 1), np.clip(t, 0, 1))
    else:  # few points far from concave: a sharp dent, steep end segments
        f = np.sort(np.concatenate([[0, 1], rng.random(3)]))
        t = np.sort(np.concatenate([[0, 1], rng.random(3) ** rng.uniform(0.2, 5)]))
    f, t = np.clip(f, 0, 1), np.clip(t, 0, 1)
    f[-1] = t[-1] = 1.0
    return f, t


def random_forecasts(rng):
    """Outcomes ``y`` (0/1 floats) and probability forecasts ``q`` of random quality.

    Between 5 and 400 cases; in about 30% of the draws the forecasts are
    rounded to one decimal (ties, and values on the edges of equal bins).

    >>> y, q = random_forecasts(np.random.default_rng(0))
    >>> len(y) == len(q), bool(np.all((0 <= q) & (q <= 1))), set(np.unique(y)) <= {0.0, 1.0}
    (True, True, True)
    """
    n = int(rng.integers(5, 400))
    q = rng.uniform(size=n) ** rng.uniform(0.3, 3)
    if rng.uniform() < 0.3:
        q = np.round(q, 1)  # ties and values on bin edges
    y = (rng.uniform(size=n) < np.clip(q + rng.normal(0, 0.2, n), 0, 1)).astype(float)
    return y, q


def random_scored_data(rng):
    """Labels ``y`` (0/1) and scores ``q`` in (0, 1) of a random classifier.

    Between 10 and 300 cases, 3% to 60% positives, a logistic score of any
    separation (also worse than chance); in about 30% of the draws the
    scores are rounded to one decimal (ties).  A draw may hold one class
    only; callers skip those.

    >>> y, q = random_scored_data(np.random.default_rng(0))
    >>> len(y) == len(q), bool(np.all((0 <= q) & (q <= 1)))
    (True, True)
    """
    n = int(rng.integers(10, 300))
    y = (rng.uniform(size=n) < rng.uniform(0.03, 0.6)).astype(int)
    q = 1 / (1 + np.exp(-(rng.normal(size=n) * rng.uniform(0.5, 3)
                          + y * rng.uniform(-1, 3) + rng.normal())))
    if rng.uniform() < 0.3:
        q = np.round(q, 1)  # ties
    return y, q


def random_discrete_population(rng):
    """``(g1, g0, share)``: a feature with 1 to 29 values, its distributions among
    the positives (g1) and the negatives (g0), and the share of positives,
    between 0.001 and 1/2.

    >>> g1, g0, share = random_discrete_population(np.random.default_rng(0))
    >>> bool(np.isclose(g1.sum(), 1) and np.isclose(g0.sum(), 1)), 0 < share <= 0.5
    (True, True)
    """
    m = int(rng.integers(1, 30))
    g1, g0 = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
    return g1, g0, float(rng.uniform(0.001, 0.5))
