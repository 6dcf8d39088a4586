"""Chapter 12: the AUK beyond one machine."""

import numpy as np

from auklib import auk_from_roc

from . import Answer


def _bin_bounds(bins=((4, 1), (2, 5), (0, 8))):
    pos, neg = np.array([b[0] for b in bins]), np.array([b[1] for b in bins])
    t = np.concatenate(([0], np.cumsum(pos))) / pos.sum()
    f = np.concatenate(([0], np.cumsum(neg))) / neg.sum()
    p = pos.sum() / (pos.sum() + neg.sum())
    low = auk_from_roc(np.repeat(f, 2)[1:], np.repeat(t, 2)[:-1], p)
    high = auk_from_roc(np.repeat(f, 2)[:-1], np.repeat(t, 2)[1:], p)
    return low, high


ANSWERS = {
    "ch12-ex-bins": Answer(
        form="the pair (L, U)",
        reference=_bin_bounds,
        hint="the right-first path crosses bin j at the height t_{j-1} it "
             "enters with, the up-first path at the height t_j it leaves with; "
             "p is the share of positives among all twenty cases.",
        atol=1e-6),
    "ch12-ex-start": Answer(
        form="the pair (f, t)",
        reference=lambda: (64 / 195, 58 / 67),
        hint="sum the negatives and the positives of the ranges above the "
             "lowest one and divide by the totals of each class.",
        atol=1e-6),
}


def start_variant(ranges):
    """ch12-ex-start with the student's three ranges (positives, negatives)."""
    pos = [r[0] for r in ranges]
    neg = [r[1] for r in ranges]
    return sum(neg[:-1]) / sum(neg), sum(pos[:-1]) / sum(pos)


VARIANTS = {"ch12-ex-start": start_variant, "ch12-ex-bins": _bin_bounds}

