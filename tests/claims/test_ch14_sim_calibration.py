"""Chapter 14: the stored simulation of the prior-shift correction
(chapters/data/sim_calibration.json, written by chapters/data/sim_calibration.py)
agrees with a re-run of its first replications, and its summaries say what
the chapter says they say."""

import json
import os

import numpy as np
import pytest

from conftest import tool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATH = os.path.join(ROOT, "chapters", "data", "sim_calibration.json")


def _tool():
    return tool("sim_calibration")


@pytest.fixture(scope="module")
def stored():
    with open(PATH, encoding="utf-8") as fh:
        return json.load(fh)


def test_ch14_sim_first_replications_reproduce(stored):
    tool = _tool()
    keep = len(stored["settings"]["well specified"]["first_replications"])
    again = tool.run(reps=keep, keep=keep)
    for setting, block in stored["settings"].items():
        new = again["settings"][setting]
        assert abs(new["intercept"] - block["intercept"]) < 1e-12
        for old_rep, new_rep in zip(block["first_replications"],
                                    new["first_replications"]):
            for version, values in old_rep.items():
                assert np.allclose(values, new_rep[version], rtol=0, atol=1e-9)


def test_ch14_sim_has_enough_replications(stored):
    assert stored["reps"] >= 2000
    for block in stored["settings"].values():
        for entry in block["summary"].values():
            assert entry["bias_mcse"] <= 0.005 and entry["rmse_mcse"] <= 0.005
