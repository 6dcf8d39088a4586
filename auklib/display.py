"""KappaCurveDisplay, shaped like ``sklearn.metrics.RocCurveDisplay`` (1.9)."""

import numpy as np

from ._validation import (
    _check_labels,
    _check_option,
    _check_sample_weight,
    _scalar_prevalence,
    _warn_majority_positive,
)
from .curves import _METHODS, _auk_segments, _curve_from_scores

__all__ = ["KappaCurveDisplay"]

_RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")

# The parameters the constructors share, described once; the docstrings
# below take them by name (%(name)s).
_PARAMETERS = {
    "sample_weight": """\
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights.""",
    "response_method": """\
        response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
            Which scores to use; "auto" tries ``predict_proba`` first.""",
    "prevalence": """\
        prevalence : float, default=None
            Share of positives at which to take kappa, strictly between 0
            and 1, as in :func:`auklib.auk_score`: the curve and the AUK of
            the same ROC curve where that share of the cases is positive.
            None uses the (weighted) share in the labels.""",
    "plot": """\
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure and axes.
        curve_kwargs : dict or list of dict, default=None
            Keyword arguments for matplotlib's ``plot`` of the curve(s).
            With several curves, one dict for all of them (one legend
            entry, the mean and standard deviation of the AUK) or one dict
            per curve (one legend entry each).
        plot_chance_level : bool, default=False
            Whether to draw the kappa = 0 line (a random or constant
            classifier).
        chance_level_kw : dict, default=None
            Keyword arguments for matplotlib's ``plot`` of the chance line.
        plot_optimal_point : bool, default=False
            Whether to mark the highest point of each curve: the threshold
            that maximises kappa (:func:`auklib.kappa_optimal_point`).
        optimal_point_kw : dict, default=None
            Keyword arguments for matplotlib's ``plot`` of those marks.
        despine : bool, default=False
            Whether to remove the top and right spines.""",
}


# The drawing options every constructor takes and hands on to ``plot``.
_DRAWING_OPTIONS = ("ax", "curve_kwargs", "plot_chance_level", "chance_level_kw",
                    "plot_optimal_point", "optimal_point_kw", "despine")


def _drawing_options(arguments):
    """The drawing options among a constructor's ``locals()``."""
    return {name: arguments[name] for name in _DRAWING_OPTIONS}


def _with_parameters(method):
    """Fill the shared parameter descriptions into ``method``'s docstring."""
    method.__doc__ = method.__doc__ % _PARAMETERS
    return method


def _pyplot(caller):
    """``matplotlib.pyplot``, or an error that says how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            f"{caller} draws with matplotlib, which is not installed. Install it "
            'with pip install "auklib[plot]" (or pip install matplotlib).'
        ) from exc
    return plt


def _as_list(value):
    """None stays None; a list or tuple stays a list; anything else becomes [value]."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _despine(ax):
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.spines["bottom"].set_bounds(0, 1)


def _kappa_and_auk(y_true, y_score, pos_label, sample_weight, method, prevalence):
    """(fpr, kappa, AUK, class share) of one set of scores; NaN AUK for one class."""
    fpr, tpr, kappa, _, p = _curve_from_scores(
        y_true, y_score, pos_label, sample_weight, "KappaCurveDisplay", prevalence,
        asymmetric=True,
    )
    auk = float("nan") if np.isnan(p) else _auk_segments(fpr, tpr, p, method)
    return fpr, kappa, auk, p


def _default_pos_label(y_true):
    """The positive label that ``pos_label=None`` means: True for bool labels, else 1."""
    return True if getattr(np.asarray(y_true), "dtype", None) == bool else 1


def _warn_if_classes_majority(estimator, y, pos, sample_weight, caller):
    """Warn when ``classes_[1]``, taken as positive, is the majority of ``y``."""
    labels = _check_labels(y, "y")
    is_pos = labels == pos
    if sample_weight is None:
        n_pos = float(np.count_nonzero(is_pos))
        n_neg = labels.shape[0] - n_pos
    else:
        w = _check_sample_weight(sample_weight, labels.shape[0])
        n_pos, n_neg = float(w[is_pos].sum()), float(w[~is_pos].sum())
    plain = [c.item() if isinstance(c, np.generic) else c for c in estimator.classes_]
    _warn_majority_positive(n_pos, n_neg, caller, plain[1], plain[0],
                            "the estimator's classes_[1]")


def _legend_title(pos_label, prevalence):
    """"positive class 'fraud', p = 0.01": which class and which share the curves show."""
    parts = []
    if isinstance(pos_label, np.generic):
        pos_label = pos_label.item()
    if pos_label is not None:
        parts.append(f"Positive class {pos_label!r}")
    prevs = [v for v in np.ravel(np.asarray(
        prevalence if prevalence is not None else [], dtype=float)) if np.isfinite(v)]
    if prevs:
        lo, hi = min(prevs), max(prevs)
        parts.append(f"p = {lo:.3g}" if f"{lo:.3g}" == f"{hi:.3g}"
                     else f"p = {lo:.3g}-{hi:.3g}")
    return ", ".join(parts) if parts else None


def _checked_options(caller, method, prevalence, response_method=None):
    """Check what needs no data first: matplotlib, the options (before any prediction)."""
    _pyplot(f"KappaCurveDisplay.{caller}")
    method = _check_option(method, "method", _METHODS)
    if response_method is not None:
        _check_option(response_method, "response_method", _RESPONSE_METHODS)
    return method, None if prevalence is None else _scalar_prevalence(prevalence)


def _response(estimator, X, response_method, pos_label):
    """Scores of a fitted binary classifier for ``pos_label`` (scikit-learn's rules)."""
    from sklearn.base import is_classifier
    from sklearn.utils.validation import check_is_fitted

    if not is_classifier(estimator):
        raise ValueError(
            f"estimator must be a classifier; got {type(estimator).__name__}."
        )
    check_is_fitted(estimator)  # NotFittedError, as scikit-learn raises
    classes = list(estimator.classes_)
    if len(classes) != 2:
        raise ValueError(
            f"The estimator has {len(classes)} classes; a binary one is needed."
        )
    pos = classes[1] if pos_label is None else pos_label
    if pos not in classes:
        raise ValueError(f"pos_label={pos!r} is not one of the classes {classes}.")
    methods = (
        ["predict_proba", "decision_function"]
        if response_method == "auto"
        else [response_method]
    )
    for m in methods:
        if hasattr(estimator, m):
            out = np.asarray(getattr(estimator, m)(X))
            break
    else:
        raise ValueError(f"{type(estimator).__name__} has none of {methods}.")
    if out.ndim == 2:
        return out[:, classes.index(pos)], pos
    return (out if pos == classes[1] else -out), pos


class KappaCurveDisplay:
    """Kappa curve visualisation: Cohen's kappa against the false positive rate.

    Create it with :meth:`from_predictions`, :meth:`from_estimator` or
    :meth:`from_cv_results`, or build it from precomputed values and call
    :meth:`plot`.  All parameters are stored as attributes.  The interface
    follows ``sklearn.metrics.RocCurveDisplay`` of scikit-learn 1.9.
    Drawing needs matplotlib (``pip install "auklib[plot]"``).

    Parameters
    ----------
    fpr : ndarray or list of ndarrays
        False positive rates, increasing; a list for several curves.
    kappa : ndarray or list of ndarrays
        Kappa at each false positive rate, shaped like ``fpr``.
    auk : float or list of floats, default=None
        Area under each curve, shown in the legend.  None: not shown.
    name : str or list of str, default=None
        Label of the curve(s) in the legend.  None: no name.
    pos_label : int, float, bool or str, default=None
        The positive class, shown on the axis labels and in the legend's
        title.
    prevalence : float or list of floats, default=None
        Share of positives at which each curve's kappa is taken (kappa
        depends on it), shown in the legend's title (``p = 0.01``; a range
        when the curves differ).  The axes title is left to the user.

    Attributes
    ----------
    line_ : matplotlib Line2D or list of Line2D
        The kappa curve(s).
    chance_level_ : matplotlib Line2D or None
        The kappa = 0 line (a random or constant classifier), None when not
        drawn.
    optimal_point_ : matplotlib Line2D, list of Line2D or None
        The mark of the highest point of each curve, in the curve's colour
        (a list, as ``line_``, for several curves); None when not drawn.
    ax_ : matplotlib Axes
        Axes with the curve(s).
    figure_ : matplotlib Figure
        Figure holding the axes.

    See Also
    --------
    auklib.kappa_curve : The values plotted.
    auklib.auk_score : The area under the curve.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from auklib import KappaCurveDisplay
    >>> disp = KappaCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> disp.auk
    0.25
    >>> disp.line_.get_label()
    'AUK = 0.250'
    >>> disp.ax_.get_legend().get_title().get_text()
    'Positive class 1, p = 0.5'

    The same scores where 1% of the cases will be positive, with the
    kappa-optimal threshold marked:

    >>> disp = KappaCurveDisplay.from_predictions(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], prevalence=0.01, plot_optimal_point=True)
    >>> round(disp.auk, 6)
    0.030565
    >>> disp.optimal_point_.get_label()
    'max kappa = 0.664'
    """

    def __init__(self, *, fpr, kappa, auk=None, name=None, pos_label=None, prevalence=None):
        self.fpr = fpr
        self.kappa = kappa
        self.auk = auk
        self.name = name
        self.pos_label = pos_label
        self.prevalence = prevalence
        fprs, kappas = self._curves()
        for f, k in zip(fprs, kappas):
            if np.shape(f) != np.shape(k):
                raise ValueError(
                    f"fpr and kappa must have the same shape; got {np.shape(f)} "
                    f"and {np.shape(k)}."
                )

    def _curves(self):
        if isinstance(self.fpr, (list, tuple)) and len(self.fpr) and np.ndim(self.fpr[0]) == 1:
            fprs, kappas = list(self.fpr), list(self.kappa)
            if not isinstance(self.kappa, (list, tuple)) or len(kappas) != len(fprs):
                raise ValueError(
                    "fpr and kappa must both be arrays or lists of the same "
                    "number of arrays."
                )
            return fprs, kappas
        return [self.fpr], [self.kappa]

    @_with_parameters
    def plot(
        self,
        ax=None,
        *,
        name=None,
        curve_kwargs=None,
        plot_chance_level=False,
        chance_level_kw=None,
        plot_optimal_point=False,
        optimal_point_kw=None,
        despine=False,
    ):
        """Draw the curve(s).

        Parameters
        ----------
        name : str or list of str, default=None
            Legend label(s); overrides ``self.name``.
%(plot)s

        Returns
        -------
        display : KappaCurveDisplay
            ``self``, with ``line_``, ``chance_level_``, ``optimal_point_``,
            ``ax_`` and ``figure_`` set.
        """
        plt = _pyplot("KappaCurveDisplay.plot")
        fprs, kappas = self._curves()
        n_curves = len(fprs)
        names = _as_list(self.name if name is None else name)
        auks = _as_list(self.auk)
        if auks is not None and len(auks) != n_curves:
            raise ValueError(f"auk has {len(auks)} values for {n_curves} curves.")
        if isinstance(curve_kwargs, (list, tuple)):
            if len(curve_kwargs) != n_curves:
                raise ValueError(
                    f"curve_kwargs has {len(curve_kwargs)} dicts for {n_curves} curves."
                )
            kw_list = [dict(kw or {}) for kw in curve_kwargs]
            per_curve = True
        elif curve_kwargs is None or isinstance(curve_kwargs, dict):
            kw_list = [dict(curve_kwargs or {}) for _ in range(n_curves)]
            per_curve = n_curves == 1
        else:
            raise TypeError(
                f"curve_kwargs must be a dict or a list of dicts; got "
                f"{type(curve_kwargs).__name__}."
            )
        if names is not None and len(names) not in (1, n_curves):
            raise ValueError(f"name has {len(names)} entries for {n_curves} curves.")
        if names is not None and len(names) > 1 and not per_curve:
            raise ValueError(
                "A list of names labels curves one by one: pass curve_kwargs as a "
                "list of dicts too (one per curve)."
            )

        labels = []
        for i in range(n_curves):
            nm = None if names is None else names[i if len(names) > 1 else 0]
            if per_curve:
                metric = None if auks is None else f"AUK = {auks[i]:.3f}"
            elif i == 0:
                metric = (
                    None
                    if auks is None
                    else f"AUK = {np.mean(auks):.3f} +/- {np.std(auks):.3f}"
                )
            else:
                labels.append("_nolegend_")
                continue
            if nm is not None and metric is not None:
                labels.append(f"{nm} ({metric})")
            else:
                labels.append(nm if metric is None else metric)

        if ax is None:
            _, ax = plt.subplots()
        self.ax_ = ax
        self.figure_ = ax.figure
        lines = []
        for f, k, kw, label in zip(fprs, kappas, kw_list, labels):
            style = {} if per_curve else {"alpha": 0.5, "linestyle": "--", "color": "blue"}
            style.update({"label": label})
            style.update(kw)
            lines.extend(ax.plot(f, k, **style))
        self.line_ = lines[0] if n_curves == 1 else lines

        self.chance_level_ = None
        if plot_chance_level:
            kw = {"color": "k", "linestyle": "--", "label": "Chance level (κ = 0)"}
            kw.update(chance_level_kw or {})
            (self.chance_level_,) = ax.plot((0, 1), (0, 0), **kw)

        self.optimal_point_ = None
        if plot_optimal_point:
            self.optimal_point_ = self._plot_optimal_points(ax, fprs, kappas,
                                                            optimal_point_kw, lines)

        suffix = "" if self.pos_label is None else f" (Positive label: {self.pos_label})"
        ax.set(
            xlabel="False positive rate" + suffix,
            ylabel="Cohen's kappa" + suffix,
            xlim=(-0.01, 1.01),
        )
        if despine:
            _despine(ax)
        marks = _as_list(self.optimal_point_) or []
        extras = [ln for ln in [self.chance_level_, *marks] if ln is not None]
        if any(not str(ln.get_label()).startswith("_") for ln in lines + extras):
            ax.legend(loc="upper right", title=_legend_title(self.pos_label, self.prevalence))
        return self

    @staticmethod
    def _plot_optimal_points(ax, fprs, kappas, optimal_point_kw, lines):
        """Mark the highest point of each curve (the first where kappa ties).

        Each mark takes its curve's colour (with a black edge, so that it
        stands out on the line); one legend entry names them all.  One
        curve gives one Line2D, several a list of them, as ``line_``.
        """
        marks = []
        for f, k, line in zip(fprs, kappas, lines):
            if not np.any(np.isfinite(k)):
                continue
            i = int(np.nanargmax(k))
            if len(fprs) == 1:
                label = f"max kappa = {k[i]:.3f}"
            else:
                label = "max kappa of each curve" if not marks else "_nolegend_"
            kw = {"marker": "o", "linestyle": "", "color": line.get_color(),
                  "markeredgecolor": "k", "label": label, "zorder": 3}
            kw.update(optimal_point_kw or {})
            marks.extend(ax.plot([f[i]], [k[i]], **kw))
        if not marks:
            return None
        return marks[0] if len(fprs) == 1 else marks

    @classmethod
    @_with_parameters
    def from_predictions(
        cls,
        y_true,
        y_score,
        *,
        pos_label=None,
        sample_weight=None,
        method="exact",
        prevalence=None,
        name=None,
        ax=None,
        curve_kwargs=None,
        plot_chance_level=False,
        chance_level_kw=None,
        plot_optimal_point=False,
        optimal_point_kw=None,
        despine=False,
    ):
        """Plot the kappa curve of true labels and scores.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True binary labels.
        y_score : array-like of shape (n_samples,)
            Scores, higher meaning more likely positive.
        pos_label : int, float, bool or str, default=None
            The positive label, as in :func:`auklib.kappa_curve`.
%(sample_weight)s
        method : {"exact", "trapezoid"}, default="exact"
            How the AUK in the legend is computed (see :func:`auklib.auk_score`).
%(prevalence)s
        name : str, default=None
            Legend label.  None: only the AUK.
%(plot)s

        Returns
        -------
        display : KappaCurveDisplay
        """
        method, prevalence = _checked_options("from_predictions", method, prevalence)
        fpr, kappa, auk, p = _kappa_and_auk(
            y_true, y_score, pos_label, sample_weight, method, prevalence
        )
        shown = _default_pos_label(y_true) if pos_label is None else pos_label
        disp = cls(fpr=fpr, kappa=kappa, auk=auk, name=name, pos_label=shown, prevalence=p)
        return disp.plot(**_drawing_options(locals()))

    @classmethod
    @_with_parameters
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        pos_label=None,
        sample_weight=None,
        response_method="auto",
        method="exact",
        prevalence=None,
        name=None,
        ax=None,
        curve_kwargs=None,
        plot_chance_level=False,
        chance_level_kw=None,
        plot_optimal_point=False,
        optimal_point_kw=None,
        despine=False,
    ):
        """Plot the kappa curve of a fitted binary classifier on (X, y).

        Parameters
        ----------
        estimator : fitted classifier
            With ``predict_proba`` or ``decision_function``.  An unfitted one
            raises ``sklearn.exceptions.NotFittedError``.
        X : array-like of shape (n_samples, n_features)
            Input values.
        y : array-like of shape (n_samples,)
            True binary labels.
        pos_label : int, float, bool or str, default=None
            The positive class; None means ``estimator.classes_[1]``.
%(sample_weight)s
%(response_method)s
        method : {"exact", "trapezoid"}, default="exact"
            How the AUK in the legend is computed.
%(prevalence)s
        name : str, default=None
            Legend label; None means the estimator's class name.
%(plot)s

        Returns
        -------
        display : KappaCurveDisplay
        """
        _checked_options("from_estimator", method, prevalence, response_method)
        score, pos = _response(estimator, X, response_method, pos_label)
        if pos_label is None:
            _warn_if_classes_majority(estimator, y, pos, sample_weight,
                                      "KappaCurveDisplay.from_estimator")
        return cls.from_predictions(
            y, score, pos_label=pos, sample_weight=sample_weight, method=method,
            prevalence=prevalence, name=type(estimator).__name__ if name is None else name,
            **_drawing_options(locals()),
        )

    @classmethod
    @_with_parameters
    def from_cv_results(
        cls,
        cv_results,
        X,
        y,
        *,
        sample_weight=None,
        response_method="auto",
        pos_label=None,
        method="exact",
        prevalence=None,
        ax=None,
        name=None,
        curve_kwargs=None,
        plot_chance_level=False,
        chance_level_kw=None,
        plot_optimal_point=False,
        optimal_point_kw=None,
        despine=False,
    ):
        """Plot one kappa curve per cross-validation fold.

        Parameters
        ----------
        cv_results : dict
            As returned by ``sklearn.model_selection.cross_validate`` with
            ``return_estimator=True`` and ``return_indices=True``.
        X : array-like of shape (n_samples, n_features)
            The data passed to ``cross_validate``.
        y : array-like of shape (n_samples,)
            The binary target passed to ``cross_validate``.
%(sample_weight)s
%(response_method)s
        pos_label : int, float, bool or str, default=None
            The positive class; None means ``estimator.classes_[1]``.
        method : {"exact", "trapezoid"}, default="exact"
            How the AUK of each fold is computed.
%(prevalence)s
        name : str or list of str, default=None
            Legend label(s); a list labels the folds one by one (with
            ``curve_kwargs`` a list too).
%(plot)s

        Returns
        -------
        display : KappaCurveDisplay
        """
        from sklearn.utils import _safe_indexing

        method, prevalence = _checked_options("from_cv_results", method, prevalence,
                                              response_method)
        if not isinstance(cv_results, dict) or not {"estimator", "indices"} <= set(
            cv_results
        ):
            raise ValueError(
                "cv_results must be the dict of cross_validate(..., "
                "return_estimator=True, return_indices=True)."
            )
        fprs, kappas, auks, prevs = [], [], [], []
        pos = pos_label
        for est, test in zip(cv_results["estimator"], cv_results["indices"]["test"]):
            score, pos = _response(est, _safe_indexing(X, test), response_method, pos_label)
            w = None if sample_weight is None else _safe_indexing(sample_weight, test)
            fpr, kappa, auk, p = _kappa_and_auk(_safe_indexing(y, test), score, pos, w,
                                                method, prevalence)
            if pos_label is None and not fprs:
                _warn_if_classes_majority(est, y, pos, sample_weight,
                                          "KappaCurveDisplay.from_cv_results")
            fprs.append(fpr)
            kappas.append(kappa)
            prevs.append(p)
            auks.append(auk)
        disp = cls(
            fpr=fprs, kappa=kappas, auk=auks, name=name, pos_label=pos, prevalence=prevs
        )
        return disp.plot(**_drawing_options(locals()))
