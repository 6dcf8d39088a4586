"""Scorers for scikit-learn's model selection: the AUK, and kappa at a threshold.

``cross_validate``, ``GridSearchCV`` and ``TunedThresholdClassifierCV`` take
a scorer object, ``scorer(estimator, X, y)``, as ``scoring``.  These are
scikit-learn scorers (made the way ``sklearn.metrics.make_scorer`` makes
them), with one difference: the positive class is the estimator's
``classes_[1]`` unless ``pos_label`` is given, and it is passed both to the
metric and to the choice of scores (the column of ``predict_proba``, the
sign of ``decision_function``), as scikit-learn's ``"roc_auc"`` does.  So
labels {0, 1}, {-1, 1}, bool or strings all work without a ``pos_label``;
``make_scorer(auk_score, response_method="predict_proba")`` would score
string labels as NaN.
"""

import copy

import numpy as np
from sklearn.metrics._scorer import _Scorer

from ._validation import (
    _check_labels,
    _check_option,
    _check_sample_weight,
    _one_class_undefined,
    _scalar_prevalence,
    _warn_default_majority,
    _warn_majority_positive,
)
from .compare import _decisions
from .curves import _METHODS, auk_score
from .kappa import _kappa_counts, _kappa_pn

__all__ = ["auk_scorer", "kappa_scorer", "make_auk_scorer", "make_kappa_scorer"]

_SCORE_METHODS = ("predict_proba", "decision_function")


class _PositiveClassScorer(_Scorer):
    """``make_scorer``'s scorer, with ``pos_label`` the estimator's ``classes_[1]``.

    scikit-learn's scorer passes ``pos_label`` to the metric only when
    ``make_scorer`` was given one; without it the metric cannot tell which
    string label is positive.  Here the estimator's ``classes_[1]`` is
    passed to the metric and used to pick the scores, so the two agree.
    The attributes that ``TunedThresholdClassifierCV`` reads (the metric,
    its keywords, the metadata requests) are those of ``make_scorer``.
    """

    def __init__(self, score_func, kwargs, response_method, name, multiclass_hint):
        super().__init__(score_func, 1, kwargs, response_method)
        self._name = name
        self._multiclass_hint = multiclass_hint

    def _asymmetric(self):
        """Whether the score depends on which class is positive.

        The AUK always does; kappa only at a given prevalence (Cohen's kappa
        of the labels themselves is the same for either class).
        """
        return self._score_func is auk_score or "prevalence" in self._kwargs

    def _score(self, method_caller, estimator, X, y_true, **kwargs):
        if self._kwargs.get("pos_label") is not None:
            return super()._score(method_caller, estimator, X, y_true, **kwargs)
        pos_label = self._positive_class(estimator)
        if self._asymmetric():
            self._warn_if_majority(estimator, y_true, pos_label, kwargs.get("sample_weight"))
        scorer = copy.copy(self)
        scorer._kwargs = {**self._kwargs, "pos_label": pos_label}
        return _Scorer._score(scorer, method_caller, estimator, X, y_true, **kwargs)

    def _warn_if_majority(self, estimator, y_true, pos_label, sample_weight):
        """Warn when ``classes_[1]``, taken as positive, is the majority of y_true."""
        y = _check_labels(y_true, "y_true")
        is_pos = y == pos_label
        if sample_weight is None:
            n_pos = float(np.count_nonzero(is_pos))
            n_neg = float(y.shape[0]) - n_pos
        else:
            w = _check_sample_weight(sample_weight, y.shape[0])
            n_pos, n_neg = float(w[is_pos].sum()), float(w[~is_pos].sum())
        other = estimator.classes_[0]
        _warn_majority_positive(
            n_pos, n_neg, self._name, _plain(pos_label), _plain(other),
            "the estimator's classes_[1]")

    def _positive_class(self, estimator):
        classes = getattr(estimator, "classes_", None)
        if classes is None:
            raise TypeError(
                f"{self._name} scores fitted classifiers; {type(estimator).__name__} "
                "has no classes_."
            )
        if len(classes) != 2:
            raise ValueError(
                f"{self._name} scores binary classifiers; {type(estimator).__name__} "
                f"has {len(classes)} classes. {self._multiclass_hint}"
            )
        return classes[1]

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"make_{self._name}({args})"


def make_auk_scorer(*, pos_label=None, prevalence=None, method="exact",
                    response_method=("decision_function", "predict_proba")):
    """A scorer of the AUK for scikit-learn's ``scoring=`` parameter.

    The scorer calls :func:`auklib.auk_score` on the estimator's scores for
    the positive class (``decision_function`` if it has one, else the
    positive column of ``predict_proba``; the AUK depends only on their
    order).  Greater is better.  :data:`auklib.auk_scorer` is
    ``make_auk_scorer()``; make one here to set the options, or to request
    ``sample_weight`` through metadata routing (``set_score_request``
    changes the scorer it is called on).

    Parameters
    ----------
    pos_label : int, float, bool or str, default=None
        The positive class; None means the estimator's ``classes_[1]``
        (as for scikit-learn's ``"roc_auc"``), with a
        :class:`~auklib.PositiveClassWarning` when that class is the
        majority of the labels scored: the AUK is meant for the rare class
        (with labels "fraud"/"ok", ``classes_[1]`` is "ok").
    prevalence : float, default=None
        Share of positives at which to take kappa, as in
        :func:`auklib.auk_score`; None uses the share in each test fold.
    method : {"exact", "trapezoid"}, default="exact"
        As in :func:`auklib.auk_score`.
    response_method : str or tuple of str, \
default=("decision_function", "predict_proba")
        The estimator's method(s) that give the scores, in order of
        preference.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y_true)`` returns the AUK; it has
        ``set_score_request`` for metadata routing.

    See Also
    --------
    auk_scorer : ``make_auk_scorer()``, ready made.
    make_kappa_scorer : Kappa of the predicted labels.

    Notes
    -----
    The recipe ``make_scorer(auk_score, needs_proba=True)`` of older
    scikit-learn no longer works: ``needs_proba`` was deprecated in
    scikit-learn 1.4 and removed in 1.6, and ``make_scorer`` now passes it
    on to the metric as a keyword.  :func:`auklib.auk_score` refuses it with
    a ``TypeError`` that names it, but ``cross_validate`` and the searches
    turn any error of a scorer into a NaN score with a warning (pass
    ``error_score="raise"`` to see it at once).  Use this scorer, or
    ``make_scorer(auk_score, response_method=...)`` with labels {0, 1},
    {-1, 1} or bool.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV, cross_validate
    >>> from auklib import auk_scorer, make_auk_scorer
    >>> X, y = make_classification(300, weights=[0.8], random_state=0)
    >>> labels = np.where(y == 1, "churn", "stay")  # classes_[1] is "stay"
    >>> cv = cross_validate(LogisticRegression(), X, labels, cv=3,
    ...                     scoring=make_auk_scorer(pos_label="churn"))
    >>> cv["test_score"].round(3)
    array([0.285, 0.308, 0.303])

    A search that refits the model with the best AUK at 1% positives:

    >>> search = GridSearchCV(
    ...     LogisticRegression(), {"C": [0.01, 1.0]}, cv=3, refit="auk",
    ...     scoring={"auk": make_auk_scorer(prevalence=0.01), "auc": "roc_auc"})
    >>> search.fit(X, y).best_params_
    {'C': 0.01}
    >>> search.cv_results_["mean_test_auk"].round(4)
    array([0.0487, 0.0449])

    With metadata routing, the test folds' ``sample_weight`` reaches the
    scorer:

    >>> import sklearn
    >>> w = np.where(y == 1, 4.0, 1.0)
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     weighted = make_auk_scorer().set_score_request(sample_weight=True)
    ...     model = LogisticRegression().set_fit_request(sample_weight=False)
    ...     cv = cross_validate(model, X, y, cv=3, scoring=weighted,
    ...                         params={"sample_weight": w})
    >>> cv["test_score"].round(3)
    array([0.387, 0.439, 0.421])
    """
    _check_option(method, "method", _METHODS)
    kwargs = {}
    if pos_label is not None:
        kwargs["pos_label"] = pos_label
    if prevalence is not None:
        kwargs["prevalence"] = _scalar_prevalence(prevalence)
    if method != "exact":
        kwargs["method"] = method
    return _PositiveClassScorer(
        auk_score, kwargs, _check_response_method(response_method), "auk_scorer",
        "For several classes score Hand & Till's M: make_scorer(auklib."
        "hand_till_score, response_method='predict_proba').",
    )


def make_kappa_scorer(*, pos_label=None, prevalence=None):
    """A scorer of Cohen's kappa of the predicted labels.

    The scorer compares ``estimator.predict(X)`` with the true labels.  In
    ``TunedThresholdClassifierCV(scoring=...)`` it scores the labels at each
    candidate threshold, so the search finds the threshold that maximises
    kappa (the empirical counterpart of :func:`auklib.kappa_optimal_point`).
    Greater is better.  :data:`auklib.kappa_scorer` is
    ``make_kappa_scorer()``.

    Parameters
    ----------
    pos_label : int, float, bool or str, default=None
        The positive class; None means the estimator's ``classes_[1]``.
        Inside ``TunedThresholdClassifierCV``, which does not pass the
        estimator on, None means the larger of the two labels, which is
        ``classes_[1]`` for scikit-learn's classifiers.  Without
        ``prevalence`` kappa does not depend on which class is positive; with
        it, an inferred positive class that is the majority of the labels
        gets a :class:`~auklib.PositiveClassWarning`.
    prevalence : float, default=None
        Share of positives at which to take kappa, strictly between 0 and
        1: kappa of the same true and false positive rates where that share
        of the cases is positive (eq. (19) of Kaymak et al.).  None uses the
        share in the data scored.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y_true)`` returns kappa; it has
        ``set_score_request`` for metadata routing.

    See Also
    --------
    kappa_scorer : ``make_kappa_scorer()``, ready made.
    auklib.kappa_optimal_point : The kappa-maximising threshold of given scores.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import TunedThresholdClassifierCV
    >>> from auklib import kappa_scorer, make_kappa_scorer
    >>> X, y = make_classification(400, weights=[0.9], random_state=0)
    >>> tuned = TunedThresholdClassifierCV(LogisticRegression(), scoring=kappa_scorer,
    ...                                    cv=3, random_state=0).fit(X, y)
    >>> round(float(tuned.best_threshold_), 3), round(float(tuned.best_score_), 3)
    (0.301, 0.533)

    Kappa where 1% of the cases will be positive favours another threshold:

    >>> tuned = TunedThresholdClassifierCV(
    ...     LogisticRegression(), scoring=make_kappa_scorer(prevalence=0.01),
    ...     cv=3, random_state=0).fit(X, y)
    >>> round(float(tuned.best_threshold_), 3)
    0.803
    """
    kwargs = {}
    if pos_label is not None:
        kwargs["pos_label"] = pos_label
    if prevalence is not None:
        kwargs["prevalence"] = _scalar_prevalence(prevalence)
    return _PositiveClassScorer(
        _predicted_kappa, kwargs, "predict", "kappa_scorer",
        "For several classes use make_scorer(sklearn.metrics.cohen_kappa_score).",
    )


def _plain(label):
    """A numpy scalar label as the Python value (its repr is what a user types)."""
    return label.item() if isinstance(label, np.generic) else label


def _check_response_method(response_method):
    methods = (response_method,) if isinstance(response_method, str) else response_method
    if not isinstance(methods, (list, tuple)) or not methods:
        raise TypeError(
            "response_method must be 'decision_function', 'predict_proba' or a "
            f"tuple of them; got {response_method!r}."
        )
    for m in methods:
        _check_option(m, "response_method", _SCORE_METHODS)
    return methods[0] if len(methods) == 1 else tuple(methods)


def _predicted_kappa(y_true, y_pred, *, pos_label=None, prevalence=None, sample_weight=None):
    """Cohen's kappa of binary predicted labels, at ``prevalence`` if given.

    ``pos_label=None`` with labels other than {0, 1}, {-1, 1} or bool means
    the larger of the labels present (scikit-learn's ``classes_[1]``).
    """
    inferred = pos_label is None
    if inferred:
        pos_label = _larger_label(y_true, y_pred)
    y_pos, decision = _decisions(y_true, y_pred, pos_label, "y_pred")
    weight = _check_sample_weight(sample_weight, y_pos.shape[0])
    cells = (y_pos & decision, y_pos & ~decision, ~y_pos & decision, ~y_pos & ~decision)
    if weight is None:
        tp, fn, fp, tn = (float(np.count_nonzero(c)) for c in cells)
    else:
        tp, fn, fp, tn = (float(weight[c].sum()) for c in cells)
    if _one_class_undefined(tp + fn, fp + tn, "kappa is", "kappa_scorer"):
        return float("nan")
    if prevalence is None:
        return float(_kappa_counts(tp, fn, fp, tn))
    pos, neg = tp + fn, fp + tn
    if inferred and pos_label is None:  # labels {0, 1} or {-1, 1}: 1 is positive
        _warn_default_majority(y_true, pos, neg, "kappa_scorer")
    elif inferred:  # TunedThresholdClassifierCV: the larger label present
        other = [v for v in np.unique(_check_labels(y_true, "y_true")).tolist()
                 if v != pos_label]
        _warn_majority_positive(pos, neg, "kappa_scorer", _plain(pos_label),
                                other[0] if other else None,
                                "the larger of the two labels, classes_[1]")
    p = _scalar_prevalence(prevalence)
    return float(_kappa_pn(tp / pos, fp / neg, fn / pos, tn / neg, p, 1.0 - p))


def _larger_label(y_true, y_pred):
    """None for the usual labels (1 is then positive), else the larger label present."""
    labels = np.unique(np.concatenate(
        [np.unique(_check_labels(v, name)) for v, name in ((y_true, "y_true"), (y_pred, "y_pred"))]
    ))
    values = set(labels.tolist())
    if values <= {0, 1} or values <= {-1, 1}:
        return None
    return labels[-1]


auk_scorer = make_auk_scorer()
auk_scorer.__doc__ = """The AUK scorer, ``make_auk_scorer()``: pass it as ``scoring=``.

``auk_scorer(estimator, X, y_true)`` is :func:`auklib.auk_score` of the
estimator's scores for its ``classes_[1]`` (``decision_function``, else
``predict_proba``), whatever the labels: {0, 1}, {-1, 1}, bool or strings.
Greater is better.  Use :func:`make_auk_scorer` for a prevalence, the
trapezoid rule, another positive class, or ``set_score_request``.

Examples
--------
>>> from sklearn.datasets import make_classification
>>> from sklearn.linear_model import LogisticRegression
>>> from sklearn.model_selection import cross_validate
>>> from auklib import auk_scorer
>>> X, y = make_classification(300, weights=[0.8], random_state=0)
>>> cv = cross_validate(LogisticRegression(), X, y == 1, cv=3,
...                     scoring={"auk": auk_scorer, "auc": "roc_auc"})
>>> cv["test_auk"].round(3), cv["test_auc"].round(3)
(array([0.285, 0.308, 0.303]), array([0.884, 0.939, 0.921]))
"""

kappa_scorer = make_kappa_scorer()
kappa_scorer.__doc__ = """The kappa scorer, ``make_kappa_scorer()``: pass it as ``scoring=``.

``kappa_scorer(estimator, X, y_true)`` is Cohen's kappa of
``estimator.predict(X)``.  As ``TunedThresholdClassifierCV(scoring=
kappa_scorer)`` it tunes the decision threshold for kappa.  Use
:func:`make_kappa_scorer` for kappa at a given prevalence, another positive
class, or ``set_score_request``.

Examples
--------
>>> from sklearn.datasets import make_classification
>>> from sklearn.linear_model import LogisticRegression
>>> from sklearn.model_selection import cross_validate
>>> from auklib import kappa_scorer
>>> X, y = make_classification(300, weights=[0.8], random_state=0)
>>> cv = cross_validate(LogisticRegression(), X, 2 * y - 1, cv=3, scoring=kappa_scorer)
>>> cv["test_score"].round(3)
array([0.724, 0.713, 0.759])
"""

# the ready scorers are objects, not functions: doctest finds their examples here
__test__ = {"auk_scorer": auk_scorer.__doc__, "kappa_scorer": kappa_scorer.__doc__}
