"""Hand recognition: which Novels a collection of cards satisfies, and how.

Only ranks matter (R2). :func:`satisfied_novels` asks whether *all* the cards
together form a Novel exactly; :func:`novel_combinations` lists every distinct
rank multiset inside the cards that satisfies one Novel, and :func:`recognize`
does that for a whole catalogue.

>>> from pastiche_core import parse_cards
>>> [spec.id for spec in satisfied_novels(parse_cards("MYS7 FAN7 SCI7 HOR7 MYT7"))]
['kind-5']
>>> novel_combinations(parse_cards("SCI5 HOR6 MYS7 FAN8 MAG9 MAG10"), "straight-5")
[(5, 6, 7, 8, 9), (6, 7, 8, 9, 10)]
"""

from __future__ import annotations

from collections.abc import Iterable

from ..data.cards import Card
from ..data.catalogue import Catalogue, NovelSpec
from ..data.patterns import rank_counts

__all__ = ["novel_combinations", "recognize", "satisfied_novels"]


def satisfied_novels(cards: Iterable[Card], catalogue: Catalogue | None = None) -> list[NovelSpec]:
    """The publishable Novels that exactly these cards satisfy, nothing extra (R4).

    >>> from pastiche_core import parse_cards
    >>> [s.id for s in satisfied_novels(parse_cards("MYT4 LOV4 SCI5 HOR5 MYS7 FAN7"))]
    ['pairs-3']
    >>> satisfied_novels([])
    []
    """
    cat = catalogue if catalogue is not None else Catalogue.default()
    ranks = sorted(card.rank for card in cards)
    if not ranks:
        return []
    return [
        spec for spec in cat.publishable if spec.pattern is not None and spec.pattern.matches(ranks)
    ]


def novel_combinations(
    cards: Iterable[Card], novel: str | NovelSpec, catalogue: Catalogue | None = None
) -> list[tuple[int, ...]]:
    """Every distinct rank multiset within ``cards`` that satisfies ``novel``, sorted.

    >>> from pastiche_core import parse_cards
    >>> novel_combinations(parse_cards("MYT4 LOV4 SCI4 HOR4"), "kind-3")
    [(4, 4, 4)]
    >>> novel_combinations(parse_cards("MYT1 MAG13 FAN12 MAG11 MYS10"), "straight-5")
    []
    """
    spec = _resolve(novel, catalogue)
    if spec.pattern is None:
        return []
    return sorted(set(spec.pattern.combinations(rank_counts(c.rank for c in cards))))


def recognize(
    cards: Iterable[Card], catalogue: Catalogue | None = None
) -> dict[str, list[tuple[int, ...]]]:
    """For every publishable Novel with at least one combination, its combinations.

    >>> from pastiche_core import parse_cards
    >>> recognize(parse_cards("SCI7 HOR7 MYS7 FAN7"))
    {'kind-3': [(7, 7, 7)]}
    """
    cat = catalogue if catalogue is not None else Catalogue.default()
    card_list = list(cards)
    found: dict[str, list[tuple[int, ...]]] = {}
    for spec in cat.publishable:
        combos = novel_combinations(card_list, spec, cat)
        if combos:
            found[spec.id] = combos
    return found


def _resolve(novel: str | NovelSpec, catalogue: Catalogue | None) -> NovelSpec:
    if isinstance(novel, NovelSpec):
        return novel
    cat = catalogue if catalogue is not None else Catalogue.default()
    return cat[novel]
