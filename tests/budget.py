"""How many examples a property test with its own count runs under the loaded profile.

A test that sets ``max_examples`` itself states the count CI runs (the ``ci``
profile, 60 examples per property); :func:`examples` scales it to the loaded
profile, so the quick ``dev`` profile runs a quarter of it and ``thorough``
more.
"""

from __future__ import annotations

from hypothesis import settings

CI_EXAMPLES = 60
"""The ``ci`` profile's examples per property, against which counts are stated."""


def examples(ci_count: int) -> int:
    """``ci_count`` scaled to the loaded profile, at least one example."""
    loaded = settings.default
    per_property = loaded.max_examples if loaded is not None else CI_EXAMPLES
    return max(1, ci_count * per_property // CI_EXAMPLES)
