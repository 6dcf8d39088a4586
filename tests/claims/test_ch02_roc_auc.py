"""Chapter 2's general claims about ROC curves, the AUC and the convex hull,
each checked by a random search over small test sets full of ties.  One test
per claim."""

import numpy as np
from scipy.stats import norm, rankdata
from sklearn.metrics import roc_auc_score, roc_curve

from auklib import kappa_from_rates, roc_convex_hull
from aukbook.plotting import binormal_roc

RNG_SEED = 2022


def random_test_sets(rng, count):
    """Small test sets with both classes and many tied scores."""
    for _ in range(count):
        size = int(rng.integers(2, 40))
        y = rng.integers(0, 2, size)
        y[0], y[1] = 0, 1
        scores = rng.integers(0, int(rng.integers(2, 12)), size).astype(float)
        yield y, scores


def test_ch02_auc_is_the_share_of_pairs_won_ties_counting_half():
    rng = np.random.default_rng(RNG_SEED)
    for y, s in random_test_sets(rng, 2000):
        f, t, _ = roc_curve(y, s, drop_intermediate=False)
        area = np.sum(np.diff(f) * (t[1:] + t[:-1]) / 2)  # the trapezoid rule
        pos, neg = s[y == 1], s[y == 0]
        diff = pos[:, None] - neg[None, :]
        pairs = np.mean((diff > 0) + 0.5 * (diff == 0))
        assert abs(area - pairs) < 1e-12


def test_ch02_auc_is_mww_u_over_pairs_with_midranks():
    rng = np.random.default_rng(RNG_SEED + 1)
    for y, s in random_test_sets(rng, 500):
        n_pos, n_neg = int(y.sum()), int((1 - y).sum())
        u = rankdata(s)[y == 1].sum() - n_pos * (n_pos + 1) / 2
        assert abs(u / (n_pos * n_neg) - roc_auc_score(y, s)) < 1e-12


def test_ch02_flipping_the_scores_gives_one_minus_the_auc_with_ties():
    rng = np.random.default_rng(RNG_SEED + 2)
    for y, s in random_test_sets(rng, 400):
        assert abs(roc_auc_score(y, -s) - (1 - roc_auc_score(y, s))) < 1e-12


def test_ch02_randomising_two_thresholds_lands_on_their_segment():
    rng = np.random.default_rng(RNG_SEED + 3)
    for y, s in random_test_sets(rng, 1000):
        theta_1, theta_2 = np.sort(rng.choice(np.unique(s), 2))[::-1]
        lam = rng.random()
        # exact expectation: above theta_1 always, between with probability lam
        prob = np.where(s >= theta_1, 1.0, np.where(s >= theta_2, lam, 0.0))
        t_mix, f_mix = prob[y == 1].mean(), prob[y == 0].mean()
        t1, f1 = (s[y == 1] >= theta_1).mean(), (s[y == 0] >= theta_1).mean()
        t2, f2 = (s[y == 1] >= theta_2).mean(), (s[y == 0] >= theta_2).mean()
        assert abs(f_mix - ((1 - lam) * f1 + lam * f2)) < 1e-12
        assert abs(t_mix - ((1 - lam) * t1 + lam * t2)) < 1e-12


def test_ch02_a_best_classifier_lies_at_a_hull_vertex_for_any_costs_and_kappa():
    rng = np.random.default_rng(RNG_SEED + 4)
    lam = np.linspace(0, 1, 51)[:, None]
    for y, s in random_test_sets(rng, 1000):
        f, t, _ = roc_curve(y, s, drop_intermediate=False)
        f_hull, t_hull = roc_convex_hull(f, t)
        # every reachable point: the segments between any two ROC points
        i, j = np.triu_indices(f.size, 1)
        f_all = ((1 - lam) * f[i] + lam * f[j]).ravel()
        t_all = ((1 - lam) * t[i] + lam * t[j]).ravel()
        p = rng.random() * 0.98 + 0.01
        c_fp, c_fn = rng.random(2)  # costs of a false positive, a false negative
        cost_all = c_fp * (1 - p) * f_all + c_fn * p * (1 - t_all)
        cost_hull = c_fp * (1 - p) * f_hull + c_fn * p * (1 - t_hull)
        assert cost_hull.min() <= cost_all.min() + 1e-12
        assert kappa_from_rates(tpr=t_hull, fpr=f_hull, prevalence=p).max() >= (
            kappa_from_rates(tpr=t_all, fpr=f_all, prevalence=p).max() - 1e-12
        )
        # and no reachable point lies above the hull
        assert np.all(t_all <= np.interp(f_all, f_hull, t_hull) + 1e-12)


def test_ch02_binormal_roc_with_equal_spreads_is_concave():
    rng = np.random.default_rng(RNG_SEED + 5)
    f = np.linspace(0.001, 0.999, 999)
    for d in rng.random(300) * 4 + 0.01:
        assert np.all(np.diff(binormal_roc(d, f), 2) < 1e-12)


def test_ch02_binormal_roc_below_diagonal_iff_f_above_phi_of_d_over_sigma_minus_1():
    rng = np.random.default_rng(RNG_SEED + 6)
    f = np.linspace(0.001, 0.999, 999)
    for _ in range(300):
        d, sigma = rng.random() * 2 + 0.01, rng.random() * 4 + 1.05
        f_star = norm.cdf(d / (sigma - 1))
        clear = np.abs(f - f_star) > 1e-3
        below = binormal_roc(d, f, sigma=sigma) < f
        assert np.array_equal(below[clear], (f > f_star)[clear])
