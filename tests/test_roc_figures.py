"""aukbook.roc_figures: the pairs matrix is the AUC; the drawings show what they claim."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.metrics import roc_auc_score, roc_curve  # noqa: E402

from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from aukbook.roc_figures import (  # noqa: E402
    PAIR_COLOURS, draw_pair_grid, draw_staircase, pair_outcomes,
)


@pytest.mark.parametrize("seed", range(20))
def test_mean_of_pairs_is_the_auc_with_ties(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.integers(0, 5, n) / 4          # few distinct scores: many ties
    w = pair_outcomes(s[y == 1], s[y == 0])
    assert w.shape == ((y == 1).sum(), (y == 0).sum())
    assert set(np.unique(w)) <= {0.0, 0.5, 1.0}
    assert abs(w.mean() - roc_auc_score(y, s)) < 1e-12


def test_empty_class_is_refused():
    with pytest.raises(ValueError, match="at least one score"):
        pair_outcomes([], [0.3])


def test_staircase_counts_the_tied_pieces():
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.9, 0.7, 0.7, 0.5, 0.3, 0.3])   # two ties across classes
    f, t, _ = roc_curve(y, s, drop_intermediate=False)
    fig, ax = plt.subplots()
    assert draw_staircase(ax, f, t) == 2
    with pytest.raises(ValueError, match="same length"):
        draw_staircase(ax, f, t[:-1])
    plt.close(fig)


def test_grid_on_the_roc_square_colours_the_area_under_the_curve():
    pos, neg = np.array([0.95, 0.8, 0.6, 0.3]), np.array([0.85, 0.6, 0.5, 0.4, 0.2, 0.1])
    fig, ax = plt.subplots()
    w = draw_pair_grid(ax, pos, neg, roc_space=True, legend=True)
    # one rectangle per won or lost pair, two triangles for the one tied pair
    assert len(ax.patches) == w.size - 1 + 2
    assert ax.get_legend() is not None
    # a won cell lies under the staircase, a lost one above it
    y = np.r_[np.ones(pos.size), np.zeros(neg.size)]
    f, t, _ = roc_curve(y, np.r_[pos, neg], drop_intermediate=False)
    win = to_rgb(PAIR_COLOURS["win"])
    for patch in ax.patches:
        if isinstance(patch, Rectangle):
            x0, y0 = patch.get_xy()
            fc, tc = x0 + patch.get_width() / 2, y0 + patch.get_height() / 2
            below = tc < np.interp(fc, f, t)
            assert below == np.allclose(patch.get_facecolor()[:3], win)
    plt.close(fig)
