"""A deliberately slow, obviously correct reference for publish options (R4–R9).

Every subset of hand cards (``itertools.combinations`` of every size) is tried
with every subset of Masterpieces on the table, and each pair is checked against
the rules one by one, in the words of the rulings:

* R6 — the Novel is publishable, a copy is left in the supply and the player
  does not hold it already;
* R4 — at least one card is played, and the played cards plus the cited
  Masterpieces' cards satisfy the pattern exactly (``pattern.matches``);
* R5 — one gift per cited Masterpiece of another player, paid from the cards
  neither played nor kept;
* the hint constraints (kept cards, excluded owners, maximum gifts, minimum points).

Options are then identified as R8 says, through ``option_key``. Only
:func:`~pastiche_core.solver.options.make_option`, :func:`~pastiche_core.solver.options.option_key`
and :class:`~pastiche_core.solver.position.Position` come from the library. Exponential:
keep hands to about 10 cards and tables to about 8 Masterpieces.

>>> from pastiche_core.solver.position import Position
>>> pos = Position.quick("MYS7 FAN7 MYT6 SCI9", table="m1=0:SCI7 m2=1:HOR7 m3=1:MYT7")
>>> brute_pareto(pos)["kind-5"]
[(2, 2)]
>>> sorted(key for key in brute_options(pos) if key[0] == "kind-3")[:2]
[('kind-3', (7,), ((-1, 7), (1, 7))), ('kind-3', (7,), ((1, 7), (1, 7)))]
"""

from __future__ import annotations

import itertools

from pastiche_core.data.cards import Card
from pastiche_core.solver.options import (
    Constraints,
    OptionKey,
    PublishOption,
    make_option,
    option_key,
)
from pastiche_core.solver.position import Position

__all__ = [
    "CardLevelKey",
    "brute_card_level",
    "brute_option_list",
    "brute_options",
    "brute_pareto",
    "pareto_front",
]


def brute_option_list(
    position: Position, constraints: Constraints | None = None
) -> list[PublishOption]:
    """One option per distinct R8 key, found by trying every card and Masterpiece subset."""
    cons = constraints if constraints is not None else Constraints()
    hand = list(position.hand)
    kept = [card for card in hand if card in cons.keep]
    novels = []
    for spec in position.catalogue.specs:
        if spec.pattern is None:
            continue  # the End Flag is never published (R12)
        if position.supply[spec.id] <= 0 or spec.id in position.held_novels:
            continue  # R6: first come, first served; one copy of a Novel per player
        if cons.min_points is not None and spec.points < cons.min_points:
            continue
        novels.append((spec.id, spec.pattern))
    # Every subset of the table, with what it contributes and what it costs.
    citations = []
    for count in range(len(position.masterpieces) + 1):
        for cited in itertools.combinations(position.masterpieces, count):
            if any(mp.owner in cons.no_cite for mp in cited):
                continue
            gifts = sum(1 for mp in cited if mp.owner != position.player)  # R5: own ones free
            citations.append((cited, gifts))
    found: dict[OptionKey, PublishOption] = {}
    for size in range(len(hand) + 1):
        for played in itertools.combinations(hand, size):
            if not played:
                continue  # R4: no publish by pastiche alone
            if any(card in cons.keep for card in played):
                continue
            spare = len(hand) - len(played) - len(kept)  # neither played nor kept
            for cited, gifts in citations:
                if gifts > spare:
                    continue  # R5: the gifts cannot all be paid
                if cons.max_gifts is not None and gifts > cons.max_gifts:
                    continue
                ranks = [card.rank for card in played] + [mp.card.rank for mp in cited]
                for novel, pattern in novels:
                    if not pattern.matches(ranks):
                        continue  # R4: exactly the requirement, nothing more
                    option = make_option(
                        position,
                        novel,
                        [card.rank for card in played],
                        [(mp.owner, mp.card.rank) for mp in cited],
                        keep=cons.keep,
                    )
                    found.setdefault(option_key(position, option), option)
    return list(found.values())


def brute_options(position: Position, constraints: Constraints | None = None) -> set[OptionKey]:
    """The R8 keys of every legal publish option."""
    return {option_key(position, option) for option in brute_option_list(position, constraints)}


def pareto_front(costs: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The points no other point dominates (both costs no greater), ascending.

    >>> pareto_front({(1, 3), (2, 2), (2, 3), (3, 2), (4, 0)})
    [(1, 3), (2, 2), (4, 0)]
    """
    return sorted(
        c for c in costs if not any(o != c and o[0] <= c[0] and o[1] <= c[1] for o in costs)
    )


def brute_pareto(
    position: Position, constraints: Constraints | None = None
) -> dict[str, list[tuple[int, int]]]:
    """Per Novel with an option, the Pareto front of (played, gifts), ascending (R9)."""
    costs: dict[str, set[tuple[int, int]]] = {}
    for option in brute_option_list(position, constraints):
        costs.setdefault(option.novel, set()).add(option.costs)
    order = list(position.catalogue)
    return {novel: pareto_front(costs[novel]) for novel in sorted(costs, key=order.index)}


CardLevelKey = tuple[str, tuple[Card, ...], tuple[tuple[int, int], ...]]
"""(novel, played cards, cited (owner or -1 for self, rank) pairs): one card-level option."""


def brute_card_level(
    position: Position, constraints: Constraints | None = None
) -> set[CardLevelKey]:
    """Every legal choice of physical hand cards per option (R8's card-level mode).

    Each R8 option is listed once per set of hand cards with its played ranks,
    kept cards excepted; citations stay identified by (owner, rank).
    """
    cons = constraints if constraints is not None else Constraints()
    found: set[CardLevelKey] = set()
    for option in brute_option_list(position, cons):
        novel, ranks, cited = option_key(position, option)
        free = [card for card in position.hand if card not in cons.keep]
        for played in itertools.combinations(free, len(ranks)):
            if sorted(card.rank for card in played) == list(ranks):
                found.add((novel, tuple(sorted(played)), cited))
    return found
