"""auklib: kappa curves, the AUK and multi-class AUC, in scikit-learn's style.

The AUK is the area under the kappa curve of Kaymak, Ben-David & Potharst
(2012): Cohen's kappa plotted against the false positive rate.
"""

from ._validation import PositiveClassWarning, UndefinedMetricWarning
from .curves import (
    KappaOptimalPoint,
    auk_bounds,
    auk_from_roc,
    auk_score,
    kappa_curve,
    kappa_optimal_point,
    roc_convex_hull,
)
from .display import KappaCurveDisplay
from .uncertainty import (
    AUCInterval,
    AUKComparison,
    AUKInterval,
    auc_confidence_interval,
    auk_compare,
    auk_confidence_interval,
)
from .stats import (
    AlignedRanksPosthoc,
    AlignedRanksResult,
    aligned_ranks_posthoc,
    friedman_aligned_ranks,
)
from .compare import (
    AgreementInterval,
    DeLongResult,
    McNemarResult,
    delong_test,
    kappa_confidence_interval,
    mcc_confidence_interval,
    mcnemar_test,
)
from .hmeasure import h_measure
from .scorers import auk_scorer, kappa_scorer, make_auk_scorer, make_kappa_scorer
from .threshold_metrics import metric_curve
from .kappa import kappa_from_confusion, kappa_from_matrix, kappa_from_rates, tpr_from_kappa
from .multiclass import (
    PairwiseAUC,
    hand_till_score,
    hand_till_table,
    mww_ranked_table,
    mww_statistic,
)

__version__ = "0.1.0"

__all__ = [
    "AUCInterval",
    "AgreementInterval",
    "DeLongResult",
    "McNemarResult",
    "AUKComparison",
    "AUKInterval",
    "AlignedRanksPosthoc",
    "AlignedRanksResult",
    "KappaCurveDisplay",
    "KappaOptimalPoint",
    "PairwiseAUC",
    "PositiveClassWarning",
    "UndefinedMetricWarning",
    "aligned_ranks_posthoc",
    "auk_bounds",
    "auc_confidence_interval",
    "auk_compare",
    "auk_confidence_interval",
    "auk_from_roc",
    "auk_score",
    "auk_scorer",
    "delong_test",
    "friedman_aligned_ranks",
    "h_measure",
    "hand_till_score",
    "hand_till_table",
    "make_auk_scorer",
    "make_kappa_scorer",
    "kappa_confidence_interval",
    "kappa_curve",
    "kappa_from_confusion",
    "kappa_from_matrix",
    "kappa_from_rates",
    "kappa_optimal_point",
    "kappa_scorer",
    "mcc_confidence_interval",
    "mcnemar_test",
    "metric_curve",
    "mww_ranked_table",
    "mww_statistic",
    "roc_convex_hull",
    "tpr_from_kappa",
]
