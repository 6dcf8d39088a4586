"""Reference answers of the book's exercises (instructor material).

One module per chapter, named like the chapter's notebook, defines
``ANSWERS = {label: Answer(...)}``.  ``course/make_checks.py`` turns each into
the hashed file ``bookkit/aukbook/checks/<chapter>.json`` that the installed
package reads; ``tests/test_exercises.py`` checks that the two agree.  These
modules are not installed and not copied to the student edition.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Answer:
    form: str              # what the student passes, e.g. "a pair (accuracy, kappa)"
    reference: object      # callable: () -> number(s), or for kind="function" f(*args)
    hint: str              # shown on a wrong answer; must not give the answer away
    atol: float = 5e-4     # accepted within atol; rejected at 2 * atol or more
    kind: str = "values"   # "values" or "function"
    probe: object = None   # kind="function": callable(rng) -> tuple of arguments
    n_probes: int = field(default=20)
