"""aukbook: the book's own helpers, kept out of the metrics library.

``aukbook.plotting`` holds the binormal model, the plotly wrappers and the
interactive explorers the chapters draw; ``aukbook.checks`` holds the
exercises' self-checks.  Neither is part of ``auklib``: installing or copying
``auklib`` brings no book or course code.
"""
