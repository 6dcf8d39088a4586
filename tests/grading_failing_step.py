"""A step of nbgrader's autograde that fails for one student after the
sandboxed run, as nbgrader's own steps can (e.g. "Notebook is invalid after
preprocessor"): the tests add it to a course's configuration to show that such
a failure is never a silent zero (tests/grading_class.py, the second course)."""

from nbgrader.preprocessors import NbGraderPreprocessor

FAILS_FOR = "t003"


class FailAfterRun(NbGraderPreprocessor):
    def preprocess(self, nb, resources):
        if resources["nbgrader"]["student"] == FAILS_FOR:
            raise ValueError("a step after the run failed (simulated by the tests)")
        return nb, resources
