"""aukbook.stored: stored tables are read, spot-checked against a fresh run, or rebuilt."""

import json

import numpy as np
import pytest

from aukbook.stored import RECOMPUTE, spread, stored_rows


def square(x, label):
    return {"x": x, "label": label, "square": np.float64(x) ** 2, "big": np.bool_(x > 2)}


KEYS = [(x, f"k{x}") for x in range(6)]


def test_a_missing_table_is_an_error_not_minutes_of_computation(tmp_path, monkeypatch):
    """A notebook run away from its data/ folder (an assignment handed out
    without it) says which file it needs, instead of recomputing every row."""
    monkeypatch.delenv(RECOMPUTE, raising=False)
    calls = []
    with pytest.raises(FileNotFoundError, match=r"t\.json.*AUKBOOK_RECOMPUTE=1") as err:
        stored_rows("t", lambda *k: calls.append(k), KEYS, check=2, folder=tmp_path / "data")
    assert calls == [] and "6 rows" in str(err.value)
    assert not (tmp_path / "data").exists()


def test_writes_the_table_when_asked_then_reads_it(tmp_path, monkeypatch):
    monkeypatch.setenv(RECOMPUTE, "1")
    calls = []

    def row(x, label):
        calls.append(x)
        return square(x, label)

    rows = stored_rows("t", row, KEYS, check=2, folder=tmp_path)
    monkeypatch.delenv(RECOMPUTE)
    assert calls == list(range(6))
    assert rows[3] == {"x": 3, "label": "k3", "square": 9.0, "big": True}
    assert type(rows[3]["big"]) is bool                      # numpy types made plain
    assert json.loads((tmp_path / "t.json").read_text())["rows"] == rows
    calls.clear()
    assert stored_rows("t", row, KEYS, check=2, folder=tmp_path) == rows
    assert calls == [0, 5]                                   # only the spot checks


def test_a_stored_row_that_differs_from_a_fresh_run_raises(tmp_path, monkeypatch):
    monkeypatch.setenv(RECOMPUTE, "1")
    stored_rows("t", square, KEYS, check=1, folder=tmp_path)
    monkeypatch.delenv(RECOMPUTE)
    data = json.loads((tmp_path / "t.json").read_text())
    data["rows"][-1]["square"] += 1e-6                       # a checked row
    (tmp_path / "t.json").write_text(json.dumps(data))
    with pytest.raises(RuntimeError, match="disagrees with a fresh computation"):
        stored_rows("t", square, KEYS, check=2, folder=tmp_path)
    data["rows"][-1]["square"] -= 1e-6
    data["rows"][-1]["big"] = False                          # booleans compare exactly
    (tmp_path / "t.json").write_text(json.dumps(data))
    with pytest.raises(RuntimeError, match=r"row \(5, 'k5'\)"):
        stored_rows("t", square, KEYS, check=2, folder=tmp_path)


def test_other_keys_or_the_environment_variable_rebuild_the_table(tmp_path, monkeypatch):
    monkeypatch.setenv(RECOMPUTE, "1")
    stored_rows("t", square, KEYS, check=0, folder=tmp_path)
    monkeypatch.delenv(RECOMPUTE)
    data = json.loads((tmp_path / "t.json").read_text())
    data["rows"][2]["square"] = -1.0                         # unchecked, wrong
    (tmp_path / "t.json").write_text(json.dumps(data))
    assert stored_rows("t", square, KEYS, check=0, folder=tmp_path)[2]["square"] == -1.0
    monkeypatch.setenv(RECOMPUTE, "1")
    assert stored_rows("t", square, KEYS, check=0, folder=tmp_path)[2]["square"] == 4.0
    monkeypatch.delenv(RECOMPUTE)
    rows = stored_rows("t", square, KEYS[:3], check=0, folder=tmp_path)
    assert len(rows) == 3 and json.loads((tmp_path / "t.json").read_text())["keys"] == [
        [x, f"k{x}"] for x in range(3)]


def test_spread_takes_first_and_last_and_stays_in_range():
    assert spread(500, 8) == [0, 71, 143, 214, 285, 356, 428, 499]
    assert spread(3, 8) == [0, 1, 2] and spread(10, 1) == [0] and spread(0, 4) == []
    for n in range(1, 40):
        for k in range(1, 10):
            got = spread(n, k)
            assert got[0] == 0 and got[-1] == (n - 1 if k > 1 else 0)
            assert len(got) == min(n, k) and got == sorted(set(got))
