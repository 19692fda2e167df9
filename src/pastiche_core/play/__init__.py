"""Capability: games played by bots to the end, one at a time or many (``play_game``, ``simulate``).

>>> from pastiche_core.play.simulate import simulate
>>> simulate(players=3, games=2, seed=1).games
2
"""
