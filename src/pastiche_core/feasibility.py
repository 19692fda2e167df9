"""The publish rules shared by the game and the solver (R4–R6).

:meth:`Game.violation <pastiche_core.game.Game.violation>` checks a
:class:`~pastiche_core.moves.Publish` move and
:func:`~pastiche_core.options.check_option` checks a
:class:`~pastiche_core.options.PublishOption`; both run :func:`publish_violation`
for everything the two have in common, so the game and the solver cannot drift
apart. Each caller then checks its own form of the gifts (concrete cards in a
move, counts per owner in an option).

>>> from pastiche_core import Catalogue, parse_cards
>>> hand = parse_cards("SCI7 HOR7 MYS7")
>>> publish_violation(Catalogue.default(), "kind-3", supply={"kind-3": 5}, holds=False,
...                   hand=hand, played=hand[:2], cited=[(1, 7)], resolve=lambda c: c,
...                   player=0, who="player 0")
(None, {1: 1})
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TypeVar

from .cards import Card, format_cards
from .catalogue import Catalogue

__all__ = ["owed_text", "publish_violation"]

_Ref = TypeVar("_Ref")


def publish_violation(
    catalogue: Catalogue,
    novel: str,
    *,
    supply: Mapping[str, int],
    holds: bool,
    hand: Collection[Card],
    played: Sequence[Card],
    cited: Sequence[_Ref],
    resolve: Callable[[_Ref], tuple[int, int] | str],
    player: int,
    who: str,
) -> tuple[str | None, dict[int, int]]:
    """Check a publish against R2, R4, R6 and R12; return (violation, gifts owed per owner).

    ``resolve`` turns a citation into the cited Masterpiece's (owner, rank), or
    into the reason it cannot be cited. ``who`` names the publisher in messages
    (``"player 2"`` or ``"the player"``). The violation is ``None`` when the
    publish is legal up to its gifts, which the caller checks against the
    returned owed counts (R5).

    >>> from pastiche_core import Catalogue, parse_cards
    >>> publish_violation(Catalogue.default(), "kind-3", supply={"kind-3": 5}, holds=False,
    ...                   hand=[], played=[], cited=[], resolve=lambda c: c, player=0,
    ...                   who="the player")
    ('a publish must play at least one card from the hand (R4)', {})
    """
    if novel not in catalogue:
        return f"unknown novel {novel!r} in catalogue {catalogue.name!r} (R2)", {}
    spec = catalogue[novel]
    if spec.pattern is None:
        return "the End Flag cannot be published (R12)", {}
    if supply[novel] <= 0:
        return f"no copy of {novel} is left in the supply (R6)", {}
    if holds:
        return f"{who} already holds {novel} (R6)", {}
    if not played:
        return "a publish must play at least one card from the hand (R4)", {}
    if len(set(played)) != len(played):
        return "a card is played twice (R4)", {}
    missing = [card for card in played if card not in hand]
    if missing:
        whose = "the hand" if who == "the player" else f"{who}'s hand"
        return f"{format_cards(missing)} not in {whose} (R4)", {}
    if len(set(cited)) != len(cited):
        return "a Masterpiece is cited twice (R4)", {}
    ranks = [card.rank for card in played]
    owed: dict[int, int] = {}
    for ref in cited:
        found = resolve(ref)
        if isinstance(found, str):
            return found, {}
        owner, rank = found
        ranks.append(rank)
        if owner != player:  # R5: citing one's own Masterpiece is free
            owed[owner] = owed.get(owner, 0) + 1
    if not spec.pattern.matches(ranks):
        return (
            f"ranks {' '.join(map(str, sorted(ranks)))} do not satisfy {novel}: "
            f"{spec.requirement}, nothing more (R4)"
        ), {}
    return None, owed


def owed_text(owed: Mapping[int, int]) -> str:
    """The R5 message for gifts that do not match the citations.

    >>> owed_text({1: 2})
    'gifts must be one card per cited Masterpiece of another player: 2 to player 1 (R5)'
    """
    want = ", ".join(f"{n} to player {p}" for p, n in sorted(owed.items())) or "none"
    return f"gifts must be one card per cited Masterpiece of another player: {want} (R5)"
