"""The grading kit's own JSON records (under ``COURSE/reports/``).

They are written by the kit, but a record may be missing, half written by a
grader that was stopped, or edited by hand; reading one never fails: anything
but a JSON object reads as an empty one.
"""

import json


def read(path):
    """The JSON object stored in ``path``, or ``{}`` when there is none."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}
