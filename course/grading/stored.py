"""The grading kit's own JSON records (under ``COURSE/reports/``).

They are written by the kit, but a record may be missing, half written by a
grader that was stopped, or edited by hand; reading one never fails: anything
but a JSON object reads as an empty one.  A record is written whole or not
at all (a temporary file renamed over it), so a stopped grader never leaves
half of one.
"""

import json
import os


def read(path):
    """The JSON object stored in ``path``, or ``{}`` when there is none."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def write(path, data, sort_keys=False):
    """Store ``data`` as the JSON record ``path`` (its folder made if need be)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, default=str, sort_keys=sort_keys)
    os.replace(path + ".tmp", path)
