"""The appendix 'Notes on the sources': its general claims about what the
source documents print, checked independently of the appendix's cells.

Bartman & Schmitz's AUCs are transcribed here a second time, from the report,
and compared with the transcription the pages use (aukbook.sources).
"""

import numpy as np
from scipy.stats import norm, rankdata

from auklib import auk_score, friedman_aligned_ranks
from aukbook.sources import BARTMAN_SCHMITZ, bartman_schmitz_table, blog_style_auk
from test_ch08_posthoc import exact_holm, holm  # the independent exact test

# Bartman & Schmitz, Table 4, AUC-ROC (rows raw, down, SMOTE)
REPORT = np.array([[0.723, 0.840, 0.630, 0.799, 0.841, 0.788],
                   [0.782, 0.840, 0.797, 0.796, 0.837, 0.789],
                   [0.778, 0.826, 0.796, 0.800, 0.818, 0.767]])
NAMES = ["LR", "RF", "SVM", "MLP", "XGB", "NB"]


def ranks_of(s):
    s = np.asarray(s, float)
    return rankdata((s - s.mean(axis=1, keepdims=True)).ravel()).reshape(s.shape)


def pair_pvalues(table, se):
    b, k = table.shape
    mean = ranks_of(table).mean(axis=0)
    return {frozenset((NAMES[i], NAMES[j])): 2 * norm.sf(abs(mean[i] - mean[j]) / se)
            for i in range(k) for j in range(i + 1, k)}


def test_the_pages_transcription_of_table_4_agrees_with_a_second_one():
    assert np.array_equal(bartman_schmitz_table("AUC-ROC").to_numpy(), REPORT)
    assert list(bartman_schmitz_table("AUC-ROC").columns) == NAMES


def test_only_the_dunn_form_without_adjustment_gives_the_pattern_bartman_schmitz_print():
    """The report prints 'p < 0.05' for five pairs and 0.06 for XGB-NB, nothing else."""
    b, k = REPORT.shape
    printed = {frozenset(pair) for pair in BARTMAN_SCHMITZ["post-hoc below 0.05"]}
    sixth = frozenset(BARTMAN_SCHMITZ["post-hoc 0.06"])

    def pattern(p):
        return ({pair for pair, v in p.items() if v < 0.05}, round(p[sixth], 2))

    dunn = pair_pvalues(REPORT, np.sqrt(k * (k * b + 1) / 6))  # scmamp since June 2015
    assert pattern(dunn) == (printed, 0.06)
    others = [v for pair, v in dunn.items() if pair not in printed | {sixth}]
    assert min(others) > 0.12
    # no other variant gives it: the printed formula, and any adjustment
    garcia = pair_pvalues(REPORT, np.sqrt(k * (b + 1) / 6))
    assert pattern(garcia)[0] != printed
    for p in (dunn, garcia):
        adjusted = dict(zip(p, holm(list(p.values()))))
        assert pattern(adjusted)[0] != printed


def test_a_correct_test_finds_at_most_one_pair_within_the_rounding_of_table_4():
    rng = np.random.default_rng(83)
    n = 4000
    tables = REPORT + rng.uniform(-0.0005, 0.0005, size=(n, 3, 6))
    keys = {}
    for t in tables:
        keys.setdefault(ranks_of(t).tobytes(), []).append(t)
    assert len(keys) == 2
    iu = np.triu_indices(6, 1)
    for group in keys.values():
        p = exact_holm(group[0])
        sig = [(NAMES[i], NAMES[j]) for i, j, q in zip(*iu, p) if q < 0.05]
        if len(group) < n / 2:  # the swapped order
            share = len(group) / n
            assert abs(share - 0.19) < 3 * np.sqrt(0.19 * 0.81 / n) + 0.005
            assert sig == [("LR", "RF")] and round(p.min(), 3) == 0.042
            assert round(friedman_aligned_ranks(group[0]).statistic, 2) == 11.58
        else:
            assert sig == [] and round(p.min(), 3) == 0.057


def test_a_constant_score_gives_0533_only_below_0067_and_not_at_table_2s_share():
    p = np.linspace(0.05, 0.08, 300_001)
    area = np.round((1 + p) / 2 + 1e-12, 3)
    # within the rounding of Table 2's mean, 0.067: only the lower half
    mean_ok = p[(p >= 0.0665) & (p < 0.0675) & (area == 0.533)]
    assert abs(mean_ok.min() - 0.0665) < 1e-6 and 0.06699 < mean_ok.max() < 0.067
    # Table 2's standard deviation of the 0/1 column, 0.251, as well: p(1 - p) = sd^2
    sd = np.sqrt(p * (1 - p))
    both = (p >= 0.0665) & (p < 0.0675) & (sd >= 0.2505) & (sd < 0.2515)
    assert both.any() and set(area[both]) == {0.534}
    counts = BARTMAN_SCHMITZ["bad customers"] / (
        BARTMAN_SCHMITZ["bad customers"] + BARTMAN_SCHMITZ["good customers"])
    assert round((1 + counts) / 2, 3) == 0.535


def test_blog_style_auk_misses_exactly_the_last_segment():
    """The loop equals the trapezoid over all vertices exactly when the top
    score's ROC vertex has no width (no negative among the top-scored cases);
    otherwise it misses that segment's trapezoid."""
    rng = np.random.default_rng(2)
    shared = 0
    for _ in range(400):
        n = int(rng.integers(4, 40))
        y = (rng.random(n) < rng.uniform(0.1, 0.6)).astype(int)
        if y.sum() in (0, n):
            continue
        s = np.round(rng.normal(size=n) + y, int(rng.integers(0, 2)))
        if len(np.unique(s)) < 2:
            continue
        top = s == s.max()
        f_top = (top & (y == 0)).sum() / (y == 0).sum()
        t_top = (top & (y == 1)).sum() / (y == 1).sum()
        p = y.mean()
        kappa_top = (2 * p * (1 - p) * (t_top - f_top)
                     / (p + (1 - 2 * p) * f_top + p * (1 - 2 * p) * (t_top - f_top)))
        missing = f_top * kappa_top / 2  # from (0, 0) to the top vertex
        gap = auk_score(y, s, method="trapezoid") - blog_style_auk(list(s), list(y))[0]
        assert abs(gap - missing) < 1e-12
        shared += f_top > 0
    assert shared > 50
