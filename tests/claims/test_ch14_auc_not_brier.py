"""Chapter 14, exercise ch14-ex-rate: a higher AUC does not guarantee a lower
Brier score once both classifiers are calibrated.

The solution says that correcting B keeps its higher AUC but does not
guarantee B the lower Brier score. One counter-example settles it: two
binormal classifiers at 7% positives, each recalibrated by isotonic
regression fitted on one half of the data and scored on the other half.
A has the higher AUC on the scoring half and still the higher (worse) Brier
score after calibration.
"""

import numpy as np
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import brier_score_loss, roc_auc_score


def test_higher_auc_can_have_the_worse_calibrated_brier_score():
    rng = np.random.default_rng(0)
    n_cases, share = 40_000, 0.07
    y = (rng.random(n_cases) < share).astype(int)

    def binormal(d, sigma):
        z = rng.standard_normal(n_cases)
        return np.where(y == 1, d + sigma * z, z)

    fit, held = slice(0, n_cases // 2), slice(n_cases // 2, None)
    result = {}
    for name, (d, sigma) in {"A": (1.2, 0.4), "B": (1.8, 2.0)}.items():
        s = binormal(d, sigma)
        iso = IsotonicRegression(out_of_bounds="clip").fit(s[fit], y[fit])
        result[name] = (roc_auc_score(y[held], s[held]),
                        brier_score_loss(y[held], iso.predict(s[held])))
    (auc_a, brier_a), (auc_b, brier_b) = result["A"], result["B"]
    assert auc_a > auc_b + 0.05  # A ranks clearly better ...
    assert brier_a > brier_b + 0.005  # ... and is clearly worse once calibrated
