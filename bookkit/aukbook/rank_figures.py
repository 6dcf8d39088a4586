"""Rank strips: a ranked list of cases drawn as a row of coloured blocks.

A rank-sum statistic such as the Mann-Whitney-Wilcoxon statistic is read off
a list of cases sorted by score.  Printed as a table, the order is hard to
see; drawn as a strip, it is not:

* each case is a block, placed left to right from rank 1 (lowest score) up;
* the block's colour is the case's class, its text the case's label (for
  example a record number), and the rank is written under it;
* the cases of the class of interest get a heavy outline, and their ranks,
  whose sum ``s`` is the statistic's raw ingredient, are printed in bold;
* optional brackets above the blocks name runs of cases with the same
  response (a crisp prediction, or a tied score).

:func:`rank_strip` draws one strip on a matplotlib axes and returns ``s``;
:func:`class_legend` adds the matching legend to a figure.
"""

import numpy as np
from matplotlib.patches import Patch, Rectangle

__all__ = ["CLASS_COLORS", "rank_strip", "class_legend"]

#: Colour-blind-safe fills (Okabe-Ito), one per class in order of first use.
CLASS_COLORS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#F0E442", "#0072B2")


def _format_rank(r):
    return f"{r:g}"


def rank_strip(ax, classes, positive, *, ranks=None, labels=None, groups=None,
               group_names=None, colors=None, n_slots=None, show_sum=True,
               title=None):
    """Draw cases in rank order as coloured blocks; return the rank sum s.

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw; its frame and ticks are switched off.
    classes : sequence
        The class of each case, **in rank order** (rank 1 first, drawn left).
    positive : label
        The class of interest: its cases are outlined and their ranks summed.
    ranks : sequence of float, optional
        The rank of each case (default 1, 2, ..., N).  Midranks such as 1.5
        are allowed.
    labels : sequence, optional
        Text inside each block (default: none).
    groups : sequence, optional
        A group for each case (for example its response); each run of equal
        consecutive groups gets a bracket above the blocks.
    group_names : dict, optional
        Text over each bracket, by group (default: the group itself).
    colors : dict, optional
        Fill colour by class (default: :data:`CLASS_COLORS` in order of first
        appearance).  Pass the same dict to every strip of a figure.
    n_slots : int, optional
        Width of the strip in blocks (default N); give the longest strip's N
        to every strip of a figure so that the blocks line up.
    show_sum : bool, default True
        Write ``s = r1 + r2 + ... = s`` to the right of the strip.
    title : str, optional
        Text to the left of the strip (for example ``"MWW(1|2)"``).

    Returns
    -------
    s : float
        The sum of the ranks of the cases of class ``positive``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> rank_strip(ax, [1, 2, 2, 1, 1], positive=1)
    10.0
    >>> rank_strip(ax, [1, 2, 2, 1, 1], positive=1, ranks=[1.5, 1.5, 4, 4, 4])
    9.5
    >>> plt.close(fig)
    """
    classes = list(classes)
    n = len(classes)
    if n == 0:
        raise ValueError("classes is empty: a rank strip needs at least one case.")
    ranks = np.arange(1, n + 1, dtype=float) if ranks is None else np.asarray(ranks, float)
    if ranks.shape != (n,):
        raise ValueError(f"ranks has {ranks.size} values for {n} cases.")
    for name, seq in (("labels", labels), ("groups", groups)):
        if seq is not None and len(seq) != n:
            raise ValueError(f"{name} has {len(seq)} values for {n} cases.")
    if colors is None:
        colors = {}
        for c in classes:
            if c not in colors:
                colors[c] = CLASS_COLORS[len(colors) % len(CLASS_COLORS)]
    missing = [c for c in dict.fromkeys(classes) if c not in colors]
    if missing:
        raise ValueError(f"colors has no colour for classes {missing}.")
    n_slots = n if n_slots is None else max(int(n_slots), n)

    is_pos = np.array([c == positive for c in classes])
    for k, c in enumerate(classes):
        ax.add_patch(Rectangle((k + 0.05, 0), 0.9, 1, facecolor=colors[c],
                               edgecolor="black" if is_pos[k] else "#777777",
                               linewidth=2.2 if is_pos[k] else 0.8))
        if labels is not None:
            ax.text(k + 0.5, 0.5, str(labels[k]), ha="center", va="center", fontsize=10)
        ax.text(k + 0.5, -0.18, _format_rank(ranks[k]), ha="center", va="top",
                fontsize=9, fontweight="bold" if is_pos[k] else "normal",
                color="black" if is_pos[k] else "#555555")
    if groups is not None:
        names = group_names or {}
        start = 0
        for k in range(1, n + 1):
            if k == n or groups[k] != groups[start]:
                ax.plot([start + 0.08, start + 0.08, k - 0.08, k - 0.08],
                        [1.12, 1.22, 1.22, 1.12], color="#444444", lw=1)
                ax.text((start + k) / 2, 1.3, str(names.get(groups[start], groups[start])),
                        ha="center", va="bottom", fontsize=8.5, color="#444444")
                start = k
    s = float(ranks[is_pos].sum())
    if show_sum:
        terms = " + ".join(_format_rank(r) for r in ranks[is_pos])
        ax.text(n_slots + 0.3, 0.5, f"s = {terms} = {_format_rank(s)}", ha="left",
                va="center", fontsize=10)
    if title is not None:
        ax.text(-0.3, 0.5, title, ha="right", va="center", fontsize=10)
    ax.set_xlim(-0.1, n_slots + (4.2 if show_sum else 0.1))
    ax.set_ylim(-0.55, 1.75 if groups is not None else 1.1)
    ax.set_axis_off()
    return s


def class_legend(fig, colors, *, names=None, positive_note=True, **kwargs):
    """A figure legend with one patch per class, and the outline convention.

    Parameters
    ----------
    fig : matplotlib Figure
    colors : dict
        Fill colour by class, as given to :func:`rank_strip`.
    names : dict, optional
        Legend text by class (default ``"class <c>"``).
    positive_note : bool, default True
        Add an outlined patch saying what the heavy outline means.
    **kwargs
        Passed to ``fig.legend`` (for example ``loc`` or ``ncol``).
    """
    names = names or {}
    handles = [Patch(facecolor=col, edgecolor="#777777", label=names.get(c, f"class {c}"))
               for c, col in colors.items()]
    if positive_note:
        handles.append(Patch(facecolor="white", edgecolor="black", linewidth=2.2,
                             label="class of interest (ranks summed)"))
    kwargs.setdefault("loc", "lower center")
    kwargs.setdefault("ncol", len(handles))
    kwargs.setdefault("frameon", False)
    return fig.legend(handles=handles, **kwargs)
