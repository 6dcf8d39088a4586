"""KappaCurveDisplay, shaped like ``sklearn.metrics.RocCurveDisplay``."""

import numpy as np

from ._validation import _check_option
from .curves import _METHODS, _auk_segments, _curve_from_scores

__all__ = ["KappaCurveDisplay"]


class KappaCurveDisplay:
    """Kappa curve visualisation: Cohen's kappa against the false positive rate.

    Create it with :meth:`from_predictions` or :meth:`from_estimator`, or
    build it from precomputed values and call :meth:`plot`.

    Parameters
    ----------
    fpr : ndarray
        False positive rates, increasing.
    kappa : ndarray
        Kappa at each false positive rate.
    auk : float, default=None
        Area under the curve, shown in the legend.  None: not shown.
    name : str, default=None
        Label of the curve in the legend.
    pos_label : int, float, bool or str, default=None
        The positive class, shown on the axis labels.
    prevalence : float, default=None
        Share of positives, shown in the title when given.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The kappa curve.
    chance_level_ : matplotlib Line2D or None
        The kappa = 0 line (a random or constant classifier).
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

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
    """

    def __init__(self, *, fpr, kappa, auk=None, name=None, pos_label=None, prevalence=None):
        self.fpr = np.asarray(fpr)
        self.kappa = np.asarray(kappa)
        if self.fpr.shape != self.kappa.shape:
            raise ValueError(
                f"fpr and kappa must have the same shape; got {self.fpr.shape} "
                f"and {self.kappa.shape}."
            )
        self.auk = auk
        self.name = name
        self.pos_label = pos_label
        self.prevalence = prevalence

    def plot(self, ax=None, *, name=None, plot_chance_level=True, chance_level_kw=None, **kwargs):
        """Draw the curve.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        name : str, default=None
            Legend label; overrides the one given at construction.
        plot_chance_level : bool, default=True
            Whether to draw the kappa = 0 line.
        chance_level_kw : dict, default=None
            Keyword arguments for the chance line.
        **kwargs
            Passed to ``ax.plot`` for the curve.

        Returns
        -------
        display : KappaCurveDisplay
            ``self``, with ``line_``, ``chance_level_``, ``ax_`` and
            ``figure_`` set.
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots()
        name = self.name if name is None else name
        label = None
        if self.auk is not None:
            label = f"AUK = {self.auk:.3f}"
            if name is not None:
                label = f"{name} ({label})"
        elif name is not None:
            label = name
        line_kw = {"drawstyle": "default", "label": label}
        line_kw.update(kwargs)
        (self.line_,) = ax.plot(self.fpr, self.kappa, **line_kw)
        self.chance_level_ = None
        if plot_chance_level:
            kw = {"color": "k", "linestyle": "--", "linewidth": 1, "label": "Chance level (κ = 0)"}
            kw.update(chance_level_kw or {})
            self.chance_level_ = ax.axhline(0.0, **kw)
        suffix = "" if self.pos_label is None else f" (Positive label: {self.pos_label})"
        ax.set_xlabel("False positive rate" + suffix)
        ax.set_ylabel("Cohen's kappa" + suffix)
        ax.set_xlim(-0.01, 1.01)
        if self.prevalence is not None:
            ax.set_title(f"Kappa curve, p = {self.prevalence:.3f}")
        if line_kw.get("label") is not None or plot_chance_level:
            ax.legend(loc="upper right")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    @classmethod
    def from_predictions(
        cls, y_true, y_score, *, pos_label=None, sample_weight=None,
        method="trapezoid", name=None, ax=None, plot_chance_level=True, **kwargs,
    ):
        """Plot the kappa curve of true labels and scores.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True binary labels.
        y_score : array-like of shape (n_samples,)
            Scores, higher meaning more likely positive.
        pos_label, sample_weight
            As in :func:`auklib.kappa_curve`.
        method : {"trapezoid", "exact"}, default="trapezoid"
            How the AUK in the legend is computed.
        name : str, default=None
            Legend label.
        ax : matplotlib Axes, default=None
        plot_chance_level : bool, default=True
        **kwargs
            Passed to ``ax.plot``.

        Returns
        -------
        display : KappaCurveDisplay
        """
        _check_option(method, "method", _METHODS)
        fpr, tpr, kappa, _, p = _curve_from_scores(
            y_true, y_score, pos_label, sample_weight, "KappaCurveDisplay"
        )
        auk = float("nan") if np.isnan(p) else _auk_segments(fpr, tpr, p, method)
        disp = cls(fpr=fpr, kappa=kappa, auk=auk, name=name, pos_label=pos_label, prevalence=p)
        return disp.plot(ax=ax, plot_chance_level=plot_chance_level, **kwargs)

    @classmethod
    def from_estimator(
        cls, estimator, X, y, *, pos_label=None, sample_weight=None,
        response_method="auto", method="trapezoid", name=None, ax=None,
        plot_chance_level=True, **kwargs,
    ):
        """Plot the kappa curve of a fitted binary classifier on (X, y).

        Parameters
        ----------
        estimator : fitted classifier
            With ``predict_proba`` or ``decision_function``.
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            True binary labels.
        pos_label : label, default=None
            Positive class; None means ``estimator.classes_[1]``.
        sample_weight : array-like, default=None
        response_method : {"auto", "predict_proba", "decision_function"}
            "auto" tries ``predict_proba`` first.
        method, name, ax, plot_chance_level, **kwargs
            As in :meth:`from_predictions`; ``name`` defaults to the
            estimator's class name.

        Returns
        -------
        display : KappaCurveDisplay
        """
        _check_option(response_method, "response_method",
                      ("auto", "predict_proba", "decision_function"))
        classes = getattr(estimator, "classes_", None)
        if classes is None:
            raise TypeError(f"{type(estimator).__name__} is not a fitted classifier (no classes_).")
        if len(classes) != 2:
            raise ValueError(f"The estimator has {len(classes)} classes; a binary one is needed.")
        pos = classes[1] if pos_label is None else pos_label
        if pos not in list(classes):
            raise ValueError(f"pos_label={pos!r} is not one of the classes {list(classes)}.")
        methods = (["predict_proba", "decision_function"] if response_method == "auto"
                   else [response_method])
        for m in methods:
            if hasattr(estimator, m):
                out = getattr(estimator, m)(X)
                break
        else:
            raise TypeError(f"{type(estimator).__name__} has none of {methods}.")
        if np.ndim(out) == 2:
            score = out[:, list(classes).index(pos)]
        else:
            score = out if pos == classes[1] else -out
        return cls.from_predictions(
            y, score, pos_label=pos, sample_weight=sample_weight, method=method,
            name=type(estimator).__name__ if name is None else name, ax=ax,
            plot_chance_level=plot_chance_level, **kwargs,
        )
