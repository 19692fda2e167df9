"""The vector environment's autoreset modes and the options its ``reset`` takes.

gymnasium's :class:`~gymnasium.vector.AutoresetMode` says what a vector environment does
when one of its games ends: ``NEXT_STEP`` deals it anew at the next step, ``SAME_STEP`` in
the same step (the last observation and info in ``infos["final_obs"]`` and
``infos["final_info"]``), ``DISABLED`` never (``reset(options={"reset_mask": ...})`` does).
:func:`autoreset_mode_of` reads the option; :func:`reset_mask_of` checks ``reset``'s options.

>>> autoreset_mode_of("SameStep")
<AutoresetMode.SAME_STEP: 'SameStep'>
>>> reset_mask_of({"reset_mask": np.array([True, False])}, 2).tolist()
[True, False]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from ..data.errors import InvalidArgumentError

__all__ = ["AUTORESET_MODES", "RESET_OPTIONS", "autoreset_mode_of", "reset_mask_of"]

AUTORESET_MODES = tuple(mode.value for mode in AutoresetMode)
"""The autoreset modes by value: ``('NextStep', 'SameStep', 'Disabled')``."""

RESET_OPTIONS = ("reset_mask",)
"""The keys ``reset(options=...)`` takes; any other is refused, not ignored."""


def autoreset_mode_of(value: object) -> AutoresetMode:
    """``value``, an :class:`~gymnasium.vector.AutoresetMode` or its value, as the member.

    >>> from gymnasium.vector import AutoresetMode
    >>> autoreset_mode_of(AutoresetMode.DISABLED), autoreset_mode_of("NextStep").name
    (<AutoresetMode.DISABLED: 'Disabled'>, 'NEXT_STEP')
    >>> autoreset_mode_of("same_step")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: autoreset_mode must be an AutoresetMode or one of 'NextStep', 'SameStep', 'Disabled', got 'same_step'
    """
    if isinstance(value, AutoresetMode):
        return value
    if isinstance(value, str) and value in AUTORESET_MODES:
        return AutoresetMode(value)
    valid = ", ".join(repr(mode) for mode in AUTORESET_MODES)
    raise InvalidArgumentError(
        f"autoreset_mode must be an AutoresetMode or one of {valid}, got {value!r}"
    )


def reset_mask_of(options: Mapping[str, Any] | None, num_envs: int) -> npt.NDArray[np.bool_] | None:
    """The games ``reset(options=options)`` deals, a copy of ``options["reset_mask"]``
    (``None``: every game). The mask must be a NumPy ``bool`` array of shape ``(num_envs,)``
    with a ``True``, as gymnasium's ``SyncVectorEnv`` asks; ``options`` is not changed.

    >>> reset_mask_of(None, 3) is None
    True
    >>> reset_mask_of({"reset_mask": np.zeros(3, dtype=bool)}, 3)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: options['reset_mask'] must have a True value (a game to deal), got [False, False, False]
    >>> reset_mask_of({"seat": 1}, 3)
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidArgumentError: reset() takes the option 'reset_mask' only, got 'seat'
    """
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise InvalidArgumentError(f"options must be a dict or None, got {options!r}")
    for key in options:
        if key not in RESET_OPTIONS:
            raise InvalidArgumentError(f"reset() takes the option 'reset_mask' only, got {key!r}")
    if "reset_mask" not in options:
        return None
    mask = options["reset_mask"]
    if not isinstance(mask, np.ndarray):
        raise InvalidArgumentError(
            f"options['reset_mask'] must be a NumPy array, got {type(mask).__name__}"
        )
    if mask.shape != (num_envs,):
        raise InvalidArgumentError(
            f"options['reset_mask'] must have shape ({num_envs},), got {mask.shape}"
        )
    if mask.dtype != np.bool_:
        raise InvalidArgumentError(f"options['reset_mask'] must have dtype bool, got {mask.dtype}")
    if not mask.any():
        raise InvalidArgumentError(
            f"options['reset_mask'] must have a True value (a game to deal), got {mask.tolist()}"
        )
    return mask.copy()
