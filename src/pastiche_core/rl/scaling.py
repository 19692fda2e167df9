"""The observation's gymnasium space and the factors that scale it into [0, 1].

Every environment (gymnasium's single and vector ones, PettingZoo's) bounds each
observation value by :attr:`~pastiche_core.rl.observation.ObservationEncoder.high`;
with ``normalize=True`` it divides each value by that bound instead.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import numpy.typing as npt

from .observation import ObservationEncoder

__all__ = ["observation_space", "scale_of"]


def scale_of(encoder: ObservationEncoder) -> npt.NDArray[np.float32]:
    """The factors that bring every observation value into [0, 1]: one over its bound.

    >>> scale = scale_of(ObservationEncoder(players=3))
    >>> float(scale.min()) > 0, float(scale.max())
    (True, 1.0)
    """
    return (1.0 / encoder.high).astype(np.float32)


def observation_space(encoder: ObservationEncoder, normalize: bool) -> gymnasium.spaces.Box:
    """``Box(0, encoder.high)`` of the encoder's size, or ``Box(0, 1)`` when normalized.

    >>> observation_space(ObservationEncoder(players=3), True)
    Box(0.0, 1.0, (1541,), float32)
    """
    high = np.ones(encoder.size, dtype=np.float32) if normalize else encoder.high.copy()
    return gymnasium.spaces.Box(
        low=np.zeros(encoder.size, dtype=np.float32), high=high, dtype=np.float32
    )
