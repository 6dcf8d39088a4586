"""Drawing helpers for ROC curves built from a handful of scores.

The foundations chapter (ROC curves and the AUC) draws the same pictures
more than once, and later chapters may reuse them:

* :func:`pair_outcomes`: the win / tie / loss matrix of every
  positive-negative pair, whose mean is the AUC;
* :func:`draw_staircase`: an empirical ROC curve with its vertices, the
  diagonal pieces that tied scores make drawn in a colour of their own;
* :func:`draw_pair_grid`: the pairs as a coloured grid, either as a table
  (positives by rows, negatives by columns) or laid on the ROC square, where
  the winning pairs fill exactly the area under the staircase.

Only matplotlib and numpy are needed; nothing here computes a metric that
the book reports (``auklib`` and scikit-learn do that).
"""

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch, Polygon, Rectangle

__all__ = ["PAIR_COLOURS", "pair_outcomes", "draw_staircase", "draw_pair_grid"]

#: Colours of a lost, tied and won pair (colour-blind safe: vermillion,
#: light grey, blue).
PAIR_COLOURS = {"loss": "#D55E00", "tie": "#BBBBBB", "win": "#0072B2"}


def pair_outcomes(pos_scores, neg_scores):
    """Outcome of every positive-negative pair: 1 win, 1/2 tie, 0 loss.

    Entry ``[i, j]`` compares positive ``i`` with negative ``j``: 1 when the
    positive scores higher, 1/2 when the two scores are equal, 0 otherwise.
    Its mean is the AUC with ties counted one half.

    Examples
    --------
    >>> from aukbook.roc_figures import pair_outcomes
    >>> pair_outcomes([0.9, 0.4], [0.4, 0.1])
    array([[1. , 1. ],
           [0.5, 1. ]])
    >>> float(pair_outcomes([0.9, 0.4], [0.4, 0.1]).mean())
    0.875
    """
    pos = np.asarray(pos_scores, dtype=np.float64).ravel()
    neg = np.asarray(neg_scores, dtype=np.float64).ravel()
    if pos.size == 0 or neg.size == 0:
        raise ValueError("pos_scores and neg_scores must each hold at least one score")
    return (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])


def draw_staircase(ax, fpr, tpr, *, color="C0", tie_color="#CC79A7", label=None,
                   annotate=None, markersize=5):
    """Draw an empirical ROC curve; pieces where f and t both move are ties.

    Parameters
    ----------
    ax : matplotlib Axes
    fpr, tpr : array-like
        The ROC vertices in threshold order (from (0, 0) to (1, 1)), as
        ``sklearn.metrics.roc_curve(..., drop_intermediate=False)`` returns.
    color, tie_color : colours of the ordinary steps and of the diagonal
        pieces made by scores shared between the classes.
    label : legend label of the curve (the tie pieces get their own).
    annotate : sequence of str, optional
        One text per vertex (for example its threshold), written beside it.

    Returns
    -------
    n_ties : int
        The number of diagonal (tied) pieces drawn.
    """
    f = np.asarray(fpr, dtype=np.float64)
    t = np.asarray(tpr, dtype=np.float64)
    if f.shape != t.shape or f.ndim != 1 or f.size < 2:
        raise ValueError("fpr and tpr must be 1-d arrays of the same length >= 2")
    ax.plot(f, t, "-", color=color, lw=2, label=label, zorder=2)
    diagonal = (np.diff(f) > 0) & (np.diff(t) > 0)
    for k in np.flatnonzero(diagonal):
        ax.plot(f[k:k + 2], t[k:k + 2], "-", color=tie_color, lw=3.5, zorder=3,
                label="tied scores" if k == np.flatnonzero(diagonal)[0] else None)
    ax.plot(f, t, "o", color=color, ms=markersize, zorder=4)
    if annotate is not None:
        for x, y, text in zip(f, t, annotate):
            offset = (6, 3) if y < 0.05 else (6, -11)  # keep labels off the axis
            ax.annotate(text, (x, y), xytext=offset, textcoords="offset points",
                        fontsize=8, color="0.25")
    ax.plot([0, 1], [0, 1], ":", color="0.6", lw=1)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.set_xlabel("false positive rate f")
    ax.set_ylabel("true positive rate t")
    return int(diagonal.sum())


def _sorted_desc(scores):
    s = np.asarray(scores, dtype=np.float64).ravel()
    return s[np.argsort(-s, kind="stable")]


def draw_pair_grid(ax, pos_scores, neg_scores, *, roc_space=False, fmt="{:.2f}",
                   legend=False):
    """Draw every positive-negative pair as a cell coloured win / tie / loss.

    Positives and negatives are sorted by decreasing score.

    * ``roc_space=False``: a table, one row per positive (highest on top),
      one column per negative (highest on the left), each cell marked
      1, 1/2 or 0.
    * ``roc_space=True``: the same cells laid on the ROC square: the column
      of the ``j``-th highest negative covers f in [j/N-, (j+1)/N-], the row
      of the ``i``-th highest positive covers t in [i/N+, (i+1)/N+].  A pair
      is won exactly when its cell lies under the ROC staircase; a block of
      tied pairs is cut in half by the staircase's diagonal, whose lower
      triangle is drawn in the colour of a win.  The scores label the
      bottom and left axes; the rates f and t label the top and right ones.
      Draw the staircase first (with its legend label) if it should appear
      in the legend.

    ``legend=True`` adds a legend naming the three colours.

    Returns
    -------
    outcomes : ndarray of shape (N+, N-)
        The matrix drawn (rows and columns sorted by decreasing score).
    """
    pos, neg = _sorted_desc(pos_scores), _sorted_desc(neg_scores)
    w = pair_outcomes(pos, neg)
    n_pos, n_neg = w.shape
    if legend:
        patches = [Patch(facecolor=PAIR_COLOURS[k], alpha=0.55 if roc_space else 1,
                         label=text)
                   for k, text in (("win", "positive higher (1)"), ("tie", "tie (1/2)"),
                                   ("loss", "negative higher (0)"))]
        ax.legend(handles=ax.get_legend_handles_labels()[0] + patches,
                  loc="upper left", bbox_to_anchor=(1.2 if roc_space else 1.02, 1),
                  borderaxespad=0,
                  fontsize=9)
    cmap = ListedColormap([PAIR_COLOURS["loss"], PAIR_COLOURS["tie"], PAIR_COLOURS["win"]])
    if not roc_space:
        ax.imshow(2 * w, cmap=cmap, vmin=0, vmax=2, aspect="equal")
        for i in range(n_pos):
            for j in range(n_neg):
                text = {1.0: "1", 0.5: "½", 0.0: "0"}[float(w[i, j])]
                ax.text(j, i, text, ha="center", va="center", color="white",
                        fontsize=11, fontweight="bold")
        ax.set_xticks(range(n_neg), [fmt.format(s) for s in neg])
        ax.set_yticks(range(n_pos), [fmt.format(s) for s in pos])
        ax.set_xlabel("score of the negative case")
        ax.set_ylabel("score of the positive case")
        ax.set_xticks(np.arange(n_neg + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(n_pos + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", lw=2)
        ax.tick_params(which="minor", length=0)
        return w
    dx, dy = 1.0 / n_neg, 1.0 / n_pos
    for i in range(n_pos):
        for j in range(n_neg):
            if w[i, j] == 0.5:
                continue  # drawn below, block by block
            kind = "win" if w[i, j] == 1 else "loss"
            ax.add_patch(Rectangle((j * dx, i * dy), dx, dy, facecolor=PAIR_COLOURS[kind],
                                   alpha=0.55, edgecolor="white", lw=1.5, zorder=0))
    # each block of tied pairs: the staircase's diagonal cuts it in two; the
    # lower-right half counts as won, the upper-left half as the other half
    for value in np.intersect1d(pos, neg):
        rows = np.flatnonzero(pos == value)
        cols = np.flatnonzero(neg == value)
        x0, x1 = cols[0] * dx, (cols[-1] + 1) * dx
        y0, y1 = rows[0] * dy, (rows[-1] + 1) * dy
        for corner, kind in (((x1, y0), "win"), ((x0, y1), "tie")):
            ax.add_patch(Polygon([(x0, y0), corner, (x1, y1)], closed=True,
                                 facecolor=PAIR_COLOURS[kind], alpha=0.55,
                                 edgecolor="white", lw=1.5, zorder=0))
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    # scores along the bottom and left, rates along the top and right
    ax.set_xticks((np.arange(n_neg) + 0.5) * dx, [fmt.format(x) for x in neg])
    ax.set_yticks((np.arange(n_pos) + 0.5) * dy, [fmt.format(x) for x in pos])
    ax.set_xlabel("negatives by decreasing score")
    ax.set_ylabel("positives by decreasing score")
    top = ax.secondary_xaxis("top")
    top.set_xticks(np.arange(n_neg + 1) * dx, [_frac(k, n_neg) for k in range(n_neg + 1)])
    top.set_xlabel("false positive rate f")
    right = ax.secondary_yaxis("right")
    right.set_yticks(np.arange(n_pos + 1) * dy, [_frac(k, n_pos) for k in range(n_pos + 1)])
    right.set_ylabel("true positive rate t")
    return w


def _frac(k, n):
    """'k/n' in lowest terms, '0' and '1' at the ends."""
    g = np.gcd(k, n)
    return {0: "0", n: "1"}.get(k, f"{k // g}/{n // g}")
