"""Novels on the table: a Novel card with the Story cards under it.

A novel with two or more cards is *Published*; with exactly one it is a
*Masterpiece* (R7, R11): the status follows from the card count, so it can never
disagree with it.

>>> from pastiche_core import parse_cards
>>> novel = TableNovel(0, "straight-5", tuple(parse_cards("SCI7")))
>>> novel.masterpiece, novel.status, str(novel.ref)
(True, 'masterpiece', '0:straight-5')
"""

from __future__ import annotations

from collections.abc import Sized
from dataclasses import dataclass

from ..data.cards import Card, format_cards
from .moves import NovelRef

__all__ = ["TableNovel", "is_masterpiece"]


# home: R7
def is_masterpiece(cards: Sized) -> bool:
    """Whether a novel of ``cards`` is a Masterpiece: one card, whether it was published
    with one (R7) or read down to one (R11); two or more make it Published.

    >>> is_masterpiece(["SCI7"]), is_masterpiece(["SCI7", "HOR7"])
    (True, False)
    """
    return len(cards) == 1


@dataclass(frozen=True, slots=True)
class TableNovel:
    """A Novel in a player's play area: owner, Novel id and the cards under it (in play order).

    >>> from pastiche_core import parse_cards
    >>> TableNovel(1, "kind-3", tuple(parse_cards("SCI7 HOR7 MYS7")))
    TableNovel(owner=1, novel='kind-3', cards=(Card.parse('SCI7'), Card.parse('HOR7'), Card.parse('MYS7')))
    """

    owner: int
    """The seat of the player in whose play area it lies, 0 to 4 (R10)."""
    novel: str
    """The id of the Novel card, in the game's catalogue (never the End Flag, R12)."""
    cards: tuple[Card, ...]
    """The Story cards under it, in play order: two or more make it Published, one a Masterpiece
    (R7, R11)."""

    @property
    def ref(self) -> NovelRef:
        """The reference used to cite or read this novel."""
        return NovelRef(self.owner, self.novel)

    @property
    def masterpiece(self) -> bool:
        """A Masterpiece has exactly one card left (R7, R11)."""
        return is_masterpiece(self.cards)

    @property
    def status(self) -> str:
        """``'masterpiece'`` or ``'published'``."""
        return "masterpiece" if is_masterpiece(self.cards) else "published"

    def __str__(self) -> str:
        mark = "*" if self.masterpiece else ""
        return f"{self.ref}{mark}[{format_cards(self.cards, sort=False)}]"
