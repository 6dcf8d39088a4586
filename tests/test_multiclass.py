import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.preprocessing import StandardScaler

from auklib import hand_till_score, hand_till_table, mww_ranked_table, mww_statistic

# Coenen & Setzkorn (2010): 8 records, classes 1..3, and three prediction tables.
TRUTH = np.array([1, 1, 1, 2, 2, 3, 3, 3])
PREDICTIONS = {
    1: TRUTH.copy(),
    2: np.array([2, 3, 2, 1, 3, 1, 2, 1]),
    3: np.array([1, 2, 1, 1, 2, 2, 3, 1]),
}
# (i, j) -> (s, n1, n2, MWW(i|j)) of the report's Table 17 (example 2) and Table 26 (example 3)
REPORT_TABLES = {
    2: {(1, 2): (6, 3, 2, 0), (2, 1): (3, 2, 3, 0), (1, 3): (6, 3, 3, 0),
        (3, 1): (6, 3, 3, 0), (2, 3): (3, 2, 3, 0), (3, 2): (6, 3, 2, 0)},
    3: {(1, 2): (10, 3, 2, 4 / 6), (2, 1): (6, 2, 3, 3 / 6), (1, 3): (12, 3, 3, 6 / 9),
        (3, 1): (9, 3, 3, 3 / 9), (2, 3): (6, 2, 3, 3 / 6), (3, 2): (8, 3, 2, 2 / 6)},
}


def pair_vectors(example, i, j):
    mask = (TRUTH == i) | (TRUTH == j)
    return (TRUTH[mask] == i).astype(int), (PREDICTIONS[example][mask] == i).astype(int)


@pytest.mark.parametrize("example", [2, 3])
def test_report_tables_17_and_26(example):
    for (i, j), (s, n1, n2, mww) in REPORT_TABLES[example].items():
        signal, response = pair_vectors(example, i, j)
        table = mww_ranked_table(signal, response)
        assert int(table["rank"][table["signal"] == 1].sum()) == s
        assert (signal.sum(), len(signal) - signal.sum()) == (n1, n2)
        assert mww_statistic(signal, response, ties="ranked_table") == pytest.approx(mww, abs=1e-15)


def test_report_table_11_order():
    # example 2, MWW(1|2): ranks 1..5 hold records 1, 2, 3, 5, 4
    signal, response = pair_vectors(2, 1, 2)
    table = mww_ranked_table(signal, response)
    assert (table["record"] + 1).tolist() == [1, 2, 3, 5, 4]
    assert table["response"].tolist() == [0, 0, 0, 0, 1]
    assert table["signal"].tolist() == [1, 1, 1, 0, 0]


@pytest.mark.parametrize(
    "example, ranked, midrank", [(1, 1.0, 1.0), (2, 0.0, 0.25), (3, 0.5, 0.625)]
)
def test_report_m_values_both_conventions(example, ranked, midrank):
    pred = PREDICTIONS[example]
    assert hand_till_score(TRUTH, pred, ties="ranked_table") == pytest.approx(ranked, abs=1e-15)
    assert hand_till_score(TRUTH, pred) == pytest.approx(midrank, abs=1e-15)


def test_example_3_pairwise_a_values():
    rows = hand_till_table(TRUTH, PREDICTIONS[3], ties="ranked_table")
    got = {(r.class_i, r.class_j): r.a_ij for r in rows}
    # the report prints A(1,2) = 0.585; exactly it is (2/3 + 1/2)/2 = 7/12
    assert got == pytest.approx({(1, 2): 7 / 12, (1, 3): 0.5, (2, 3): 5 / 12})


def test_ranked_table_is_tpr_for_crisp_predictions():
    rng = np.random.default_rng(0)
    for _ in range(20):
        sig = rng.integers(0, 2, 30)
        sig[:2] = [0, 1]
        resp = rng.integers(0, 2, 30)
        tpr = resp[sig == 1].mean()
        fpr = resp[sig == 0].mean()
        assert mww_statistic(sig, resp, ties="ranked_table") == pytest.approx(tpr)
        assert mww_statistic(sig, resp) == pytest.approx((1 + tpr - fpr) / 2)


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 30).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
    st.lists(st.integers(-4, 4), min_size=n, max_size=n))))
def test_prop_midrank_mww_matches_pair_counting(data):
    sig, resp = np.array(data[0]), np.array(data[1])
    pos, neg = resp[sig == 1], resp[sig == 0]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    assert mww_statistic(sig, resp) == pytest.approx(wins / (len(pos) * len(neg)), abs=1e-12)


@pytest.fixture(scope="module")
def wine_model():
    X, y = load_wine(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    # few iterations and strong regularisation so that the AUC is below 1
    model = LogisticRegression(C=0.002, max_iter=200).fit(X[::2], y[::2])
    return model, X[1::2], y[1::2]


def test_matches_sklearn_ovo_on_wine(wine_model):
    model, X, y = wine_model
    proba = model.predict_proba(X)
    want = roc_auc_score(y, proba, multi_class="ovo")
    assert want < 1
    assert hand_till_score(y, proba) == pytest.approx(want, abs=1e-12)


def test_decision_function_scores(wine_model):
    model, X, y = wine_model
    dec = model.decision_function(X)
    with pytest.raises(ValueError):
        roc_auc_score(y, dec, multi_class="ovo")  # scikit-learn needs probabilities
    # oracle: average of binary AUCs over pairs, column i for class i
    want = []
    for i in range(3):
        for j in range(i + 1, 3):
            m = (y == i) | (y == j)
            want.append((roc_auc_score(y[m] == i, dec[m, i]) + roc_auc_score(y[m] == j, dec[m, j])) / 2)
    assert hand_till_score(y, dec) == pytest.approx(np.mean(want), abs=1e-12)


def test_labels_order_follows_columns():
    y = np.array(["b", "a", "c", "a", "b", "c"])
    scores = np.random.default_rng(1).random((6, 3))
    m_sorted = hand_till_score(y, scores)
    order = ["c", "a", "b"]
    cols = [["a", "b", "c"].index(c) for c in order]
    assert hand_till_score(y, scores[:, cols], labels=order) == pytest.approx(m_sorted, abs=1e-15)


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        (([1, 1, 1], [1, 1, 1]), {}, ValueError, "at least two classes"),
        (([0, 1, 2], np.ones((3, 2))), {}, ValueError, "score columns"),
        (([0, 1, 2], np.ones((4, 3))), {}, ValueError, "rows"),
        (([0, 1, 2], [0, 1]), {}, ValueError, "samples"),
        (([0, 1, 2], [0, 1, 5]), {}, ValueError, "not classes"),
        (([0, 1, 2], [0, 1, 2]), {"ties": "average"}, ValueError, "ties='average'"),
        (([0, 1, 2], np.full((3, 3), np.nan)), {}, ValueError, "NaN"),
        (([0, 1, 2], [0, 1, 2]), {"labels": [0, 1]}, ValueError, "not in labels"),
        (([0, 1, 1], [0, 1, 1]), {"labels": [0, 1, 2]}, ValueError, "no samples"),
        (([0, 1, 2], np.full((3, 3), "x")), {}, TypeError, "numeric"),
        (([0, 1, 2], [0.2, 0.5, 0.9]), {"ties": "ranked_table"}, ValueError, "not classes"),
    ],
)
def test_hand_till_bad_input(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        hand_till_score(*args, **kwargs)


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        (([1, 1, 1], [0, 1, 1]), {}, ValueError, "both 1s and 0s"),
        (([1, 2, 0], [0, 1, 1]), {}, ValueError, "0/1"),
        (([1, 0], [0, 1, 1]), {}, ValueError, "different numbers"),
        (([1, 0, 1], [0.3, 0.1, 0.7]), {"ties": "ranked_table"}, ValueError, "crisp 0/1"),
        (([1, 0, 1], [0, 1, 1]), {"ties": "rank"}, ValueError, "ties="),
        (([1, 0, 1], ["a", "b", "c"]), {}, TypeError, "response must contain numbers"),
    ],
)
def test_mww_bad_input(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        mww_statistic(*args, **kwargs)
