"""Layer 0, data: the cards, the Novels and catalogues, the limits and the errors; no rule of play.

Nothing here imports a module of a layer above. The package root re-exports the
public names, so ``from pastiche_core import Card`` is the usual spelling.

>>> from pastiche_core.data.cards import parse_cards
>>> parse_cards("sci9 MAG13")
[Card.parse('SCI9'), Card.parse('MAG13')]
"""
