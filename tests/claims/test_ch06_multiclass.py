"""Chapter 6's general statements, checked by random search over crisp and
scored multi-class predictions, class counts and confusion matrices."""

import numpy as np
from sklearn.metrics import cohen_kappa_score, roc_auc_score

from auklib import hand_till_score, kappa_from_matrix, mww_statistic


def random_crisp_pair(rng):
    n = int(rng.integers(2, 60))
    signal = rng.integers(0, 2, n)
    signal[:2] = [1, 0]  # both classes present
    response = (rng.random(n) < rng.random()).astype(int)
    return signal, response


def test_ch06_ranked_table_mww_is_the_true_positive_rate_for_every_crisp_table():
    rng = np.random.default_rng(0)
    for _ in range(1000):
        signal, response = random_crisp_pair(rng)
        t = response[signal == 1].mean()
        f = response[signal == 0].mean()
        assert abs(mww_statistic(signal, response, ties="ranked_table") - t) < 1e-12
        assert abs(mww_statistic(signal, response) - (1 + t - f) / 2) < 1e-12


def test_ch06_midrank_minus_ranked_table_is_t0_minus_t1_over_2_ni_nj():
    rng = np.random.default_rng(1)
    for _ in range(1000):
        signal, response = random_crisp_pair(rng)
        pos, neg = response[signal == 1], response[signal == 0]
        t1 = np.sum(pos == 1) * np.sum(neg == 1)
        t0 = np.sum(pos == 0) * np.sum(neg == 0)
        gap = mww_statistic(signal, response) - mww_statistic(
            signal, response, ties="ranked_table"
        )
        assert abs(gap - (t0 - t1) / (2 * len(pos) * len(neg))) < 1e-12


def test_ch06_calling_everything_class_i_scores_1_ranked_and_half_midrank():
    rng = np.random.default_rng(2)
    for _ in range(200):
        signal, _ = random_crisp_pair(rng)
        ones = np.ones_like(signal)
        assert mww_statistic(signal, ones, ties="ranked_table") == 1.0
        assert mww_statistic(signal, ones) == 0.5


def always_wrong(rng, truth, c):
    "Random predictions that never equal the truth."
    return (truth + rng.integers(1, c, len(truth))) % c


def test_ch06_always_wrong_never_reaches_m_0_with_midranks_for_three_or_more_classes():
    """The ranked table gives M = 0 for every always-wrong classifier (0%
    accuracy); with midranks M = 0 is impossible for c >= 3 and reached by
    swapping the labels for c = 2."""
    rng = np.random.default_rng(3)
    lowest = 1.0
    for _ in range(600):
        c = int(rng.integers(3, 7))
        truth = np.concatenate([np.arange(c), rng.integers(0, c, rng.integers(0, 40))])
        wrong = always_wrong(rng, truth, c)
        assert hand_till_score(truth, wrong, ties="ranked_table") == 0.0
        m = hand_till_score(truth, wrong)
        assert m > 0
        lowest = min(lowest, m)
    assert lowest < 0.3  # the search reaches near the bound, not only easy cases
    truth = rng.integers(0, 2, 50)
    truth[:2] = [0, 1]
    assert hand_till_score(truth, 1 - truth) == 0.0


def test_ch06_hand_till_score_agrees_with_scikit_learn_ovo():
    rng = np.random.default_rng(4)
    for _ in range(300):
        c = int(rng.integers(3, 7))
        n = int(rng.integers(c, 120))
        y = np.concatenate([np.arange(c), rng.integers(0, c, n - c)])
        raw = rng.random((n, c)) + rng.uniform(0, 3) * np.eye(c)[y]
        if rng.random() < 0.3:  # many ties
            raw = np.round(raw, 1)
        proba = raw / raw.sum(axis=1, keepdims=True)
        assert abs(
            hand_till_score(y, proba) - roc_auc_score(y, proba, multi_class="ovo")
        ) < 1e-12


def test_ch06_perfectly_separating_scores_give_m_1():
    rng = np.random.default_rng(5)
    for _ in range(200):
        c = int(rng.integers(2, 7))
        y = np.concatenate([np.arange(c), rng.integers(0, c, 30)])
        scores = rng.random((len(y), c)) * 0.5 + np.eye(c)[y]
        assert hand_till_score(y, scores) == 1.0


def test_ch06_zero_one_weights_give_cohens_kappa_for_any_number_of_classes():
    rng = np.random.default_rng(6)
    for _ in range(1000):
        c = int(rng.integers(2, 8))
        cm = rng.integers(0, 30, (c, c))
        cm[0, 0] += 1
        o = cm / cm.sum()
        a, pc = np.trace(o), o.sum(axis=1) @ o.sum(axis=0)
        if pc == 1:
            continue
        assert abs(kappa_from_matrix(cm) - (a - pc) / (1 - pc)) < 1e-12
        w = 1.0 - np.eye(c)
        e = np.outer(o.sum(axis=1), o.sum(axis=0))
        assert abs(kappa_from_matrix(cm) - (1 - (w * o).sum() / (w * e).sum())) < 1e-12


def test_ch06_weighted_kappa_agrees_with_scikit_learn():
    rng = np.random.default_rng(7)
    for _ in range(300):
        c = int(rng.integers(2, 6))
        y = np.concatenate([np.arange(c), rng.integers(0, c, 60)])
        y_hat = np.clip(y + rng.integers(-2, 3, len(y)), 0, c - 1)
        cm = np.zeros((c, c), int)
        np.add.at(cm, (y, y_hat), 1)
        for w in (None, "linear", "quadratic"):
            assert abs(
                kappa_from_matrix(cm, weights=w) - cohen_kappa_score(y, y_hat, weights=w)
            ) < 1e-12


def test_ch06_auc_is_symmetric_in_the_positive_class_for_every_data_set():
    """'Unlike the AUC, the AUK is not symmetric': the AUC half, for any data."""
    rng = np.random.default_rng(8)
    for _ in range(500):
        n = int(rng.integers(2, 80))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = np.round(rng.normal(size=n) + y, int(rng.integers(0, 3)))
        assert abs(roc_auc_score(y, s) - roc_auc_score(1 - y, -s)) < 1e-12
