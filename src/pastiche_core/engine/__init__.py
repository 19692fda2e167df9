"""Layer 1, engine: moves, the rules of play, the game; the compiled kernels' gate beside it.

``_kernels`` is the one gate to the optional C extension ``_speedups`` (built from
``csrc/``), whose every kernel has its Python twin in this layer or the one below.

>>> from pastiche_core.engine.game import Game
>>> Game(players=3, seed=1).phase
<Phase.KEEP: 'keep'>
"""
