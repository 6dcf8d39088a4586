"""Chapter 10: how sure are we?"""

import numpy as np
from scipy.stats import norm

from auklib import auk_compare, auk_confidence_interval

from . import Answer


def _bc_levels():
    z0, z = norm.ppf(0.6), norm.ppf(0.975)
    return (float(norm.cdf(2 * z0 - z)), float(norm.cdf(2 * z0 + z)))


def pairing_example(noise_a=0.5, noise_b=0.8):
    """The two classifiers of the chapter's section on paired comparison."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(50, dtype=int), np.zeros(450, dtype=int)]
    latent = np.r_[rng.normal(1.5, 1, 50), rng.normal(0, 1, 450)]
    a = latent + rng.normal(0, noise_a, latent.size)
    b = latent + rng.normal(0, noise_b, latent.size)
    return y, a, b


def _pairing_ratio(noise_a=0.5, noise_b=0.8):
    y, a, b = pairing_example(noise_a, noise_b)
    boot = dict(n_resamples=2000, random_state=0, method="bootstrap")
    res = auk_compare(y, a, b, **boot)
    se_a = auk_confidence_interval(y, a, **boot).standard_error
    se_b = auk_confidence_interval(y, b, **boot).standard_error
    return float(np.hypot(se_a, se_b) / ((res.high - res.low) / (2 * norm.ppf(0.975))))


ANSWERS = {
    "ch10-ex-bc": Answer(
        form="the pair (low_level, high_level) of quantile levels",
        reference=_bc_levels,
        hint="z0 is the normal quantile of the share below the estimate; the "
             "levels are Phi(2 z0 - z) and Phi(2 z0 + z) with z for 97.5%.",
        atol=5e-4),
    "ch10-ex-paired": Answer(
        form="the ratio of the unpaired to the paired standard error (a number)",
        reference=_pairing_ratio,
        hint="the unpaired standard error combines the two separate standard "
             "errors as if independent: the square root of the sum of squares.",
        atol=0.05),
}


def bc_variant(share_below, level):
    """ch10-ex-bc with the student's share below the estimate and level."""
    z0, z = norm.ppf(share_below), norm.ppf(1 - (1 - level) / 2)
    return (float(norm.cdf(2 * z0 - z)), float(norm.cdf(2 * z0 + z)))


VARIANTS = {"ch10-ex-bc": bc_variant, "ch10-ex-paired": _pairing_ratio}


def _bc_rubric(share_below, level):
    low, high = bc_variant(share_below, level)
    z = norm.ppf(1 - (1 - level) / 2)
    alpha = (1 - level) / 2
    up = share_below > 0.5
    return {"share": f"{share_below:g}", "z": f"{z:.3f}", "low": f"{low:.3f}",
            "high": f"{high:.3f}", "plain": f"{alpha:g} and {1 - alpha:g}",
            "direction": "up" if up else "down",
            "side": "below" if up else "above"}


RUBRIC_VALUES = {"ch10-ex-bc": _bc_rubric}
