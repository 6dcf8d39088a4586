"""aukbook: the book's own helpers, kept out of the metrics library.

``aukbook.plotting`` holds the binormal model, the plotly wrappers and the
interactive explorers the chapters draw; ``aukbook.checks`` holds the
exercises' self-checks; ``aukbook.sources`` what the source documents print
(and the blog post's AUK, re-implemented); ``aukbook.posthoc`` the published
post-hoc formulas the book examines; ``aukbook.searches`` the random families
over which the chapters search for counterexamples to their general claims.
None is part of ``auklib``: installing or copying ``auklib`` brings no book
or course code.
"""
