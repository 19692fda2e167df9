"""Observations: what one player may know, as a fixed-size array and as text.

An observation is made from the player's :class:`~pastiche_core.view.PlayerView`
(``game.view(player)``) and, for the player to move, the decision they are
building (:class:`~pastiche_core.rl.encoding.MoveBuilder`), so it never depends on
hidden cards. :class:`ObservationEncoder` fixes the layout for a number of
players and a catalogue; :meth:`~ObservationEncoder.encode` fills a ``float32``
vector and :meth:`~ObservationEncoder.text` writes the same information as text.

**Layout.** Seats are *relative*: seat ``s`` of the observation is the player
``s`` places after the observer (``s = 0`` is the observer). ``n`` is the
number of players, ``k`` the number of publishable Novels; card planes hold 49
values, one per card in :data:`~pastiche_core.cards.DECK` order; all values
are 0/1 except the counts.

==========================  ===========  =============================================
field                       shape        content
==========================  ===========  =============================================
``hand``                    49           own hand
``drawn``                   49           the two drawn cards, while choosing (R11)
``discard_top``             49           the top discard, if face up
``discard_face_up``         49           every face-up card of the discard pile
``discard_own``             49           own face-down setup discards in the pile (R16)
``flag_card``               49           the card under the End Flag (R12)
``published``               n × 49       cards in each seat's Published novels
``masterpieces``            n × 49       the card of each seat's Masterpieces
``known_hands``             n × 49       cards known from the history to lie in each
                                         other seat's hand (R16; seat 0 stays empty)
``novel_cards``             k × 49       cards lying under each Novel (any owner)
``building_played``         49           hand cards chosen to play so far
``building_cited``          49           Masterpiece cards chosen to cite so far
``building_gifts``          49           gift cards chosen so far
``building_discards``       49           setup discards chosen so far
``held_published``          n × k        seat holds the Novel as Published
``held_masterpiece``        n × k        seat holds the Novel as a Masterpiece
``supply``                  k            copies left in the supply (count)
``hand_sizes``              n            cards in each seat's hand (count)
``scores``                  n            each seat's points (count, R13)
``piles``                   3            deck size, discard size, face-down discards
``phase``                   5            keep, action, choose, flag, over
``to_move``                 n            seat whose decision it is
``current``                 n            seat whose turn it is
``seat``                    n            the observer's own seat number (absolute)
``passes``                  1            passes in succession (count, R11)
``countdown``               2            end triggered; turns left (count, R12)
``trigger``                 n            the trigger player's seat (R12)
``flag_owner``              n            the End Flag holder's seat (R12)
``flag_lost``               1            the End Flag was lost (R12)
``stage``                   4            start, discarding, cards, gifts
``building_novel``          k            the Novel of the publish being built
``gifts_owed``              n            gifts still to choose per seat (count)
==========================  ===========  =============================================

The ``building_*``, ``stage``, ``building_novel`` and ``gifts_owed`` fields are
the player's own decision in progress; they stay empty in any other player's
observation. ``known_hands`` comes from the player's
:class:`~pastiche_core.knowledge.Knowledge` (what the public history and
their own moves showed: a card taken face up from the discard pile, a card
read, a gift they gave); it stays empty when none is given.

>>> from pastiche_core import Game
>>> game = Game(players=4, seed=3)
>>> encoder = ObservationEncoder(players=4)
>>> encoder.size
1716
>>> obs = encoder.encode(game.view(0))
>>> obs.dtype, obs.shape, int(obs[encoder.slice("hand")].sum())
(dtype('float32'), (1716,), 3)
>>> print(encoder.text(game.view(0)).splitlines()[1])
hand: MYT6 LOV4 FAN8
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._kernels import PURE_PYTHON
from ..cards import DECK, format_cards
from ..catalogue import Catalogue
from ..errors import InvalidArgumentError
from ..knowledge import Knowledge
from ..rules import MAX_PLAYERS, MIN_PLAYERS, Phase
from .encoding import MoveBuilder, Stage

# Transitional: the kernels still in legacy.c, until they move behind the gate.
_speedups = (
    None
    if PURE_PYTHON or importlib.util.find_spec("pastiche_core._legacy") is None
    else importlib.import_module("pastiche_core._legacy")
)
_fill_public = getattr(_speedups, "fill_public", None)
"""The compiled twin of :meth:`ObservationEncoder._public_py`, when built."""

if TYPE_CHECKING:
    from ..view import PlayerView

__all__ = ["Field", "ObservationEncoder"]

_CARDS = len(DECK)
_PHASES = (Phase.KEEP, Phase.ACTION, Phase.CHOOSE, Phase.FLAG, Phase.OVER)
_PHASE_INDEX = {phase: index for index, phase in enumerate(_PHASES)}
# The fields the compiled encoder writes, in the order of its offsets.
_COMPILED_FIELDS = (
    "hand",
    "drawn",
    "discard_top",
    "discard_face_up",
    "discard_own",
    "flag_card",
    "published",
    "masterpieces",
    "known_hands",
    "novel_cards",
    "held_published",
    "held_masterpiece",
    "supply",
    "hand_sizes",
    "scores",
    "piles",
    "phase",
    "to_move",
    "current",
    "seat",
    "passes",
    "countdown",
    "trigger",
    "flag_owner",
    "flag_lost",
)


@dataclass(frozen=True, slots=True)
class Field:
    """One named part of the observation vector: where it starts and its shape.

    >>> Field("hand", 0, (49,)).size
    49
    """

    name: str
    """The field's name, as the module's layout table gives it (``'hand'``, ``'scores'``, ...)."""
    offset: int
    """The position of the field's first value in the observation vector."""
    shape: tuple[int, ...]
    """The field's shape: ``(49,)`` for a card plane, ``(n, 49)`` for one plane per seat, and so
    on."""

    @property
    def size(self) -> int:
        """Number of values."""
        size = 1
        for extent in self.shape:
            size *= extent
        return size


class ObservationEncoder:
    """The observation layout for ``players`` seats and a catalogue (module docstring).

    >>> encoder = ObservationEncoder(players=3)
    >>> encoder.field("published")
    Field(name='published', offset=294, shape=(3, 49))
    >>> ObservationEncoder(players=6)
    Traceback (most recent call last):
    ...
    pastiche_core.errors.InvalidArgumentError: players must be from 3 to 5, got 6
    """

    __slots__ = (
        "_at",
        "_building",
        "_last",
        "_novel_index",
        "_offsets",
        "catalogue",
        "fields",
        "high",
        "novels",
        "players",
        "size",
    )

    def __init__(self, players: int = 4, catalogue: Catalogue | None = None) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidArgumentError(f"players must be an integer, got {players!r}")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidArgumentError(
                f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}"
            )
        self.players = players
        """The number of players, 3 to 5 (R10)."""
        self.catalogue = catalogue if catalogue is not None else Catalogue.default()
        """The catalogue; its publishable Novels make the ``k`` Novel slots."""
        self.novels = tuple(spec.id for spec in self.catalogue.publishable)
        """The ids of the publishable Novels in catalogue order: the ``k`` Novel slots."""
        n, k = players, len(self.novels)
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (_CARDS,)),
            ("drawn", (_CARDS,)),
            ("discard_top", (_CARDS,)),
            ("discard_face_up", (_CARDS,)),
            ("discard_own", (_CARDS,)),
            ("flag_card", (_CARDS,)),
            ("published", (n, _CARDS)),
            ("masterpieces", (n, _CARDS)),
            ("known_hands", (n, _CARDS)),
            ("novel_cards", (k, _CARDS)),
            ("building_played", (_CARDS,)),
            ("building_cited", (_CARDS,)),
            ("building_gifts", (_CARDS,)),
            ("building_discards", (_CARDS,)),
            ("held_published", (n, k)),
            ("held_masterpiece", (n, k)),
            ("supply", (k,)),
            ("hand_sizes", (n,)),
            ("scores", (n,)),
            ("piles", (3,)),
            ("phase", (len(_PHASES),)),
            ("to_move", (n,)),
            ("current", (n,)),
            ("seat", (n,)),
            ("passes", (1,)),
            ("countdown", (2,)),
            ("trigger", (n,)),
            ("flag_owner", (n,)),
            ("flag_lost", (1,)),
            ("stage", (len(Stage),)),
            ("building_novel", (k,)),
            ("gifts_owed", (n,)),
        ]
        fields: list[Field] = []
        offset = 0
        for name, shape in shapes:
            field = Field(name, offset, shape)
            fields.append(field)
            offset += field.size
        self.fields: tuple[Field, ...] = tuple(fields)
        """Every field of the layout, in vector order."""
        self.size = offset
        """The length of the observation vector (1471 for 4 players and the default catalogue)."""
        self._at = {field.name: field.offset for field in fields}
        # (offset, size) of each field the compiled encoder writes, in its order.
        # Where the decision in progress goes (written at every action).
        self._building = tuple(
            self._at[name]
            for name in (
                "stage",
                "building_played",
                "building_cited",
                "building_gifts",
                "building_discards",
                "building_novel",
                "gifts_owed",
            )
        )
        self._offsets = tuple(
            value
            for field in (self.field(name) for name in _COMPILED_FIELDS)
            for value in (field.offset, field.size)
        )
        self._novel_index = {novel: index for index, novel in enumerate(self.novels)}
        # The last view encoded (with its knowledge) and its vector without the
        # decision in progress: a decision of several actions re-encodes the same
        # view at every action.
        self._last: (
            tuple[PlayerView, tuple[Knowledge, int] | None, npt.NDArray[np.float32]] | None
        ) = None
        high = np.ones(self.size, dtype=np.float32)
        specs = self.catalogue.publishable
        points = sum(spec.points * spec.copies for spec in self.catalogue.specs)
        for name, value in (
            ("hand_sizes", _CARDS),
            ("scores", points),
            ("piles", _CARDS),
            ("passes", n),
            ("countdown", 2 * n - 1),
            ("gifts_owed", _CARDS),
        ):
            high[self.slice(name)] = value
        high[self.slice("supply")] = [spec.copies for spec in specs]
        self.high: npt.NDArray[np.float32] = high
        """The largest value each position of the vector can take: 1, or the bound of a count."""

    def __repr__(self) -> str:
        return f"<ObservationEncoder {self.players} players, {self.size} values>"

    def field(self, name: str) -> Field:
        """The :class:`Field` called ``name``.

        >>> ObservationEncoder().field("nothing")
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidArgumentError: no observation field 'nothing'
        """
        for field in self.fields:
            if field.name == name:
                return field
        raise InvalidArgumentError(f"no observation field {name!r}")

    def slice(self, name: str) -> slice:
        """The positions of field ``name`` in the vector.

        >>> ObservationEncoder().slice("drawn")
        slice(49, 98, None)
        """
        field = self.field(name)
        return slice(field.offset, field.offset + field.size)

    def unpack(self, observation: npt.NDArray[Any]) -> dict[str, npt.NDArray[Any]]:
        """The observation split into its fields, each in its shape.

        >>> from pastiche_core import Game
        >>> encoder = ObservationEncoder(players=3)
        >>> parts = encoder.unpack(encoder.encode(Game(players=3, seed=1).view(1)))
        >>> parts["hand_sizes"].tolist(), parts["seat"].tolist()
        ([3.0, 4.0, 3.0], [0.0, 1.0, 0.0])
        """
        if observation.shape != (self.size,):
            raise InvalidArgumentError(
                f"expected an observation of shape ({self.size},), got {observation.shape}"
            )
        return {
            field.name: observation[field.offset : field.offset + field.size].reshape(field.shape)
            for field in self.fields
        }

    # ------------------------------------------------------------------
    def encode(
        self,
        view: PlayerView,
        builder: MoveBuilder | None = None,
        out: npt.NDArray[np.float32] | None = None,
        knowledge: Knowledge | None = None,
    ) -> npt.NDArray[np.float32]:
        """The observation of ``view``'s player; ``builder`` adds their decision in progress.

        ``builder`` is used only when it belongs to the same player (the one to
        move); ``knowledge`` (the same player's, at the same moment) fills
        ``known_hands``. The result is a new array unless ``out`` is given (then
        ``out`` is filled and returned).

        >>> from pastiche_core import Game
        >>> encoder = ObservationEncoder(players=3)
        >>> encoder.encode(Game(players=4, seed=1).view(0))
        Traceback (most recent call last):
        ...
        pastiche_core.errors.InvalidArgumentError: this encoder is for 3 players, the view has 4
        """
        if view.players != self.players:
            raise InvalidArgumentError(
                f"this encoder is for {self.players} players, the view has {view.players}"
            )
        if knowledge is not None and knowledge.player != view.player:
            raise InvalidArgumentError(
                f"the knowledge is player {knowledge.player}'s, the view player {view.player}'s"
            )
        stamp = None if knowledge is None else (knowledge, knowledge.moves)
        last = self._last
        if last is not None and last[0] is view and last[1] == stamp:
            base = last[2]
        else:
            base = self._public(view, knowledge)
            self._last = (view, stamp, base)
        if out is None:
            out = base.copy()
        else:
            out[:] = base
        stage_at, played_at, cited_at, gifts_at, discards_at, novel_at, owed_at = self._building
        if builder is None or builder.view.player != view.player:
            out[stage_at] = 1.0
            return out
        stage, played, cited, gifts, discards = builder.progress()
        out[stage_at + stage] = 1.0
        if not stage:
            return out
        # A handful of values: single writes cost less than an index array.
        for index in played:
            out[played_at + index] = 1.0
        for index in cited:
            out[cited_at + index] = 1.0
        for index in gifts:
            out[gifts_at + index] = 1.0
        for index in discards:
            out[discards_at + index] = 1.0
        novel = builder.novel
        if novel is not None:
            out[novel_at + self._novel_index[novel]] = 1.0
        if stage is Stage.GIFTS:
            n, me = self.players, view.player
            for owner, count in builder.owed:
                out[owed_at + (owner - me) % n] = count
        return out

    def _public(self, view: PlayerView, knowledge: Knowledge | None) -> npt.NDArray[np.float32]:
        """The vector of everything but the decision in progress (compiled when built)."""
        fill = _fill_public
        if fill is not None:
            out = np.empty(self.size, dtype=np.float32)
            flag = view.flag
            phase = view.phase
            over = phase is Phase.OVER
            turns_left = view.turns_left
            trigger = view.trigger
            try:
                fill(
                    out,
                    self._offsets,
                    self.players,
                    view.player,
                    len(self.novels),
                    self._novel_index,
                    view.hand,
                    view.pending,
                    view.discard,
                    view.face_down,
                    None if knowledge is None else knowledge.holders,
                    flag,
                    view.tables,
                    view.supply,
                    view.hand_sizes,
                    view.scores,
                    (
                        _PHASE_INDEX[phase],
                        -1 if over else view.to_move,
                        -1 if over else view.current,
                        -1 if turns_left is None else turns_left,
                        -1 if trigger is None else trigger,
                        int(trigger is not None and flag is None and phase is not Phase.FLAG),
                        view.deck_size,
                        view.passes,
                    ),
                )
            except OverflowError:
                pass  # beyond the kernel's ranges: the Python encoder answers
            else:
                return out
        return self._public_py(view, knowledge)

    def _public_py(self, view: PlayerView, knowledge: Knowledge | None) -> npt.NDArray[np.float32]:
        """:meth:`_public` in Python: the reference of the compiled ``fill_public``."""
        out = np.zeros(self.size, dtype=np.float32)
        at = self._at
        n = self.players
        me = view.player
        hand = at["hand"]
        ones = [hand + card.index for card in view.hand]
        add = ones.append
        if view.pending is not None:
            drawn = at["drawn"]
            ones += [drawn + card.index for card in view.pending]
        discard = view.discard
        hidden = view.face_down
        if discard:
            face_up, own = at["discard_face_up"], at["discard_own"]
            if hidden:
                for index, shown in enumerate(discard):
                    if shown is not None:
                        add((own if index in hidden else face_up) + shown.index)
            else:
                ones += [face_up + card.index for card in discard]  # type: ignore[union-attr]
            top = discard[-1]
            if top is not None and len(discard) - 1 not in hidden:
                add(at["discard_top"] + top.index)
        if knowledge is not None and knowledge.holders:
            known = at["known_hands"]
            for card_index, holder in knowledge.holders.items():
                add(known + ((holder - me) % n) * _CARDS + card_index)
        flag = view.flag
        if flag is not None:
            add(at["flag_card"] + flag[1].index)
            add(at["flag_owner"] + (flag[0] - me) % n)
        novel_index = self._novel_index
        k = len(self.novels)
        published, masterpieces, novel_cards = (
            at["published"],
            at["masterpieces"],
            at["novel_cards"],
        )
        held_published, held_masterpiece = at["held_published"], at["held_masterpiece"]
        for owner, seat_table in enumerate(view.tables):
            if not seat_table:
                continue
            seat = (owner - me) % n
            seat_published = published + seat * _CARDS
            seat_masterpieces = masterpieces + seat * _CARDS
            for novel in seat_table:
                index = novel_index[novel.novel]
                cards = novel.cards
                under = novel_cards + index * _CARDS
                if len(cards) == 1:
                    only = cards[0].index
                    add(seat_masterpieces + only)
                    add(held_masterpiece + seat * k + index)
                    add(under + only)
                else:
                    for card in cards:
                        add(seat_published + card.index)
                        add(under + card.index)
                    add(held_published + seat * k + index)
        add(at["phase"] + _PHASE_INDEX[view.phase])
        if view.phase is not Phase.OVER:
            add(at["to_move"] + (view.to_move - me) % n)
            add(at["current"] + (view.current - me) % n)
        add(at["seat"] + me)
        if view.turns_left is not None:
            add(at["countdown"])
        if view.trigger is not None:
            add(at["trigger"] + (view.trigger - me) % n)
            if flag is None and view.phase is not Phase.FLAG:
                add(at["flag_lost"])
        out[ones] = 1.0
        # Counts.
        where: list[int] = []
        values: list[int] = []
        supply = at["supply"]
        for novel_id, copies in view.supply:
            if copies:
                found = novel_index.get(novel_id)
                if found is not None:
                    where.append(supply + found)
                    values.append(copies)
        hand_sizes, scores = at["hand_sizes"], at["scores"]
        for owner in range(n):
            seat = (owner - me) % n
            where += (hand_sizes + seat, scores + seat)
            values += (view.hand_sizes[owner], view.scores[owner])
        piles = at["piles"]
        where += (piles, piles + 1, piles + 2, at["passes"])
        values += (view.deck_size, len(discard), len(hidden), view.passes)
        if view.turns_left is not None:
            where.append(at["countdown"] + 1)
            values.append(view.turns_left)
        out[where] = values
        return out

    # ------------------------------------------------------------------
    def text(
        self,
        view: PlayerView,
        builder: MoveBuilder | None = None,
        knowledge: Knowledge | None = None,
    ) -> str:
        """The same information as :meth:`encode`, as readable text (seats absolute).

        >>> from pastiche_core import Game
        >>> print(ObservationEncoder(players=3).text(Game(players=3, seed=7).view(1)))
        player 1 of 3, turn 0, keep: player 2 to move
        hand: HOR4 MYS6 MYS11
        deck 39, discard 0
        P0 3 cards, 0 points: -
        P1 3 cards, 0 points: -
        P2 4 cards, 0 points: -
        supply: straight-5 4, straight-7 3, straight-9 2, straight-11 1, kind-3 5, kind-5 2, pairs-3 5, pairs-4 3, total-5 5, total-7 3, end-flag 1
        """
        status = (
            f"over ({view.end_reason})"
            if view.phase is Phase.OVER
            else f"{view.phase.value}: player {view.to_move} to move"
        )
        lines = [
            f"player {view.player} of {view.players}, turn {view.turn}, {status}",
            f"hand: {format_cards(view.hand) or '-'}",
        ]
        if view.pending is not None:
            lines.append(f"drawn: {format_cards(view.pending, sort=False)}")
        piles = f"deck {view.deck_size}, discard {len(view.discard)}"
        if view.discard:
            hidden = view.face_down
            last = len(view.discard) - 1
            top = "face down" if last in hidden else str(view.discard[last])
            piles += f" (top {top}, {len(hidden)} face down)"
            own = [card for index in hidden if (card := view.discard[index]) is not None]
            if own:
                piles += f", own face down (bottom first): {format_cards(own, sort=False)}"
        lines.append(piles)
        for owner, seat_table in enumerate(view.tables):
            novels = " ".join(str(novel) for novel in seat_table) or "-"
            flag = ""
            if view.flag is not None and view.flag[0] == owner:
                flag = f" flag[{view.flag[1]}]"
            lines.append(
                f"P{owner} {view.hand_sizes[owner]} cards, {view.scores[owner]} points: "
                f"{novels}{flag}"
            )
        lines.append(
            "supply: " + ", ".join(f"{novel} {copies}" for novel, copies in view.supply if copies)
        )
        if knowledge is not None and knowledge.holders:
            known = knowledge.known_hands()
            lines.append(
                "known in hands: "
                + ", ".join(f"P{seat} {format_cards(cards)}" for seat, cards in known.items())
            )
        if view.passes:
            lines.append(f"passes in succession: {view.passes}")
        if view.trigger is not None:
            end = f"end triggered by player {view.trigger}"
            if view.turns_left is not None:
                end += f", {view.turns_left} turns left"
            lines.append(end)
        if builder is not None and builder.view.player == view.player:
            building = _building_text(builder)
            if building:
                lines.append(f"building: {building}")
        return "\n".join(lines)


def _building_text(builder: MoveBuilder) -> str:
    stage = builder.stage
    if stage is Stage.START:
        return ""
    if stage is Stage.DISCARDING:
        return f"keep, discarding {format_cards(builder.discards)}"
    parts: list[str] = [f"publish {builder.novel}"]
    if builder.played:
        parts.append(f"play {format_cards(builder.played)}")
    if builder.cited:
        parts.append(f"cite {format_cards(builder.cited)}")
    if stage is Stage.GIFTS:
        given: Sequence[str] = [str(gift) for gift in builder.gifts]
        if given:
            parts.append(f"gift {' '.join(given)}")
        owed = ", ".join(f"{count} to player {owner}" for owner, count in builder.owed)
        parts.append(f"(gifts owed: {owed})")
    return " ".join(parts)
