"""Determinizations: whole games sampled from what one player knows (R16).

A player sees their own hand, the table, the supply, the face-up discards,
their own face-down discards, the hand sizes and the public history
(:class:`~pastiche_core.view.PlayerView`). Everything else — the other hands,
the order of the deck, the other seats' face-down discards and the two cards
another seat is choosing between — is hidden. A *determinization* deals the
hidden cards at random, consistently with everything the player has seen, and
builds a full :class:`~pastiche_core.game.Game` from the result, so that the
rules engine applies as it does to a real game. It is one possible truth, not
the truth: a search averages over many of them.

What the player has seen constrains the deal beyond the visible cards
(:class:`Knowledge`, read from the public history):

* a card another seat **read** from a Published novel is in that seat's hand;
* a card another seat **took** from the discard pile is in that seat's hand
  when the history tells which card lay on top (the player's own named
  setup discards; a face-up card pushed by ``choose ?`` is not named by the
  history, so a take of it tells nothing);
* a card the player **gave** as a gift is in the recipient's hand;
* each of these stays known until the seat plays it (publish), puts it under
  the End Flag, or gives it away: a gift between two other seats is hidden,
  so the card may then be in either hand (both seats stay possible).

The deal respects every hand size, and is uniform over the deals that respect
all of the above. A history that does not replay to the view's deck and
discard pile (a composed position, or a history from another game) is
ignored: only the visible cards then constrain the deal.

>>> import random
>>> from pastiche_core import Game, check_invariants
>>> game = Game(players=4, seed=7)
>>> for move in ["keep MYT1 HOR7 HOR8", "keep MYT5 SCI5 HOR5", "draw", "choose FAN9"]:
...     game.apply(move)
>>> view = game.view(1)
>>> sample = determinize(view, random.Random(1))
>>> sample.hand(1) == view.hand, [len(sample.hand(p)) for p in range(4)]
(True, [4, 3, 3, 3])
>>> check_invariants(sample)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..cards import DECK, Card
from ..errors import InvalidStateError
from ..game import Game
from ..moves import Keep, Move, Read, TakeFlag
from ..rng import GameRng
from ..rules import DEAL_SIZES, KEEP_SIZE, Phase
from ..view import HIDDEN, PlayerView

__all__ = ["Knowledge", "determinize"]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one player knows of the hidden cards, read once from a view.

    ``unknown`` lists the cards the player cannot see, in card order: they
    are somewhere in the other hands, the deck, the other seats' face-down
    discards or the drawn cards another seat is choosing between. ``located``
    maps some of them to the seats whose hand may hold them (see the module);
    ``history_used`` says whether the public history replayed consistently
    (when it does not, ``located`` is empty).

    >>> from pastiche_core import Game
    >>> game = Game(players=3, seed=7)
    >>> knowledge = Knowledge.of(game.view(0))
    >>> len(knowledge.unknown), knowledge.located, knowledge.history_used
    (46, (), True)
    """

    player: int
    """The view's player."""
    unknown: tuple[Card, ...]
    """The cards the player cannot see, in card order."""
    located: tuple[tuple[Card, frozenset[int]], ...]
    """Unknown cards the history places, each with the seats whose hand may hold it."""
    history_used: bool
    """Whether the public history replayed consistently with the view."""

    @classmethod
    def of(cls, view: PlayerView) -> Knowledge:
        """Read ``view``: the unseen cards and where the public history places some of them.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> for move in ["keep MYT1 HOR7 HOR8", "draw", "choose SCI5"]:
        ...     game.apply(move)
        >>> game.apply("take")  # player 1 takes the face-up card player 0 discarded
        >>> Knowledge.of(game.view(2)).located   # the history does not name it
        ()
        """
        seen = set(view.hand)
        seen.update(card for card in view.discard if card is not None)
        for table in view.tables:
            for novel in table:
                seen.update(novel.cards)
        if view.flag is not None:
            seen.add(view.flag[1])
        if view.pending is not None:
            seen.update(view.pending)
        unknown = tuple(card for card in DECK if card not in seen)
        located = _replay(view)
        used = located is not None
        hidden = set(unknown)
        found = tuple(
            (card, frozenset(seats))
            for card, seats in sorted((located or {}).items())
            if card in hidden and seats and view.player not in seats
        )
        return cls(view.player, unknown, found, used)

    def known_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards known for certain to be in ``seat``'s hand (one possible seat).

        >>> from pastiche_core import Game
        >>> Knowledge.of(Game(players=3, seed=7).view(0)).known_cards(1)
        ()
        """
        return tuple(card for card, seats in self.located if seats == {seat})


def _slots(view: PlayerView) -> tuple[list[int], list[int], int, int]:
    """The hidden places: hand sizes per other seat, hidden discard indexes, pending, deck."""
    hands = [0 if seat == view.player else size for seat, size in enumerate(view.hand_sizes)]
    hidden_discards = [index for index, card in enumerate(view.discard) if card is None]
    pending = 2 if view.phase is Phase.CHOOSE and view.pending is None else 0
    return hands, hidden_discards, pending, view.deck_size


def determinize(view: PlayerView, rng: random.Random, knowledge: Knowledge | None = None) -> Game:
    """A full game consistent with ``view``: the hidden cards dealt at random (see the module).

    ``knowledge`` is ``Knowledge.of(view)``, given to save reading the view
    again when sampling many times. Each of the 49 cards is in exactly one
    place; the player's hand, the table, the supply, the face-up discards,
    the phase and the counters are the view's; cards the history places in a
    seat's hand are dealt there; the game's generator (which decides future
    reshuffles, R14) is seeded from ``rng``. The game has no history. A view
    whose cards do not add up to the 49 (one built by hand) raises
    :class:`~pastiche_core.errors.InvalidStateError`.

    >>> import random
    >>> from pastiche_core import Game
    >>> view = Game(players=3, seed=7).view(2)
    >>> one, two = determinize(view, random.Random(5)), determinize(view, random.Random(5))
    >>> one == two, one.hand(2) == view.hand, one.deck_size == view.deck_size
    (True, True, True)
    """
    known = knowledge if knowledge is not None else Knowledge.of(view)
    hands, hidden_discards, pending_size, deck_size = _slots(view)
    slots = sum(hands) + len(hidden_discards) + pending_size + deck_size
    if slots != len(known.unknown):
        raise InvalidStateError(
            f"the view hides {len(known.unknown)} cards but has {slots} hidden places "
            "(hands, face-down discards, drawn cards, deck): it accounts for the 49 cards "
            "wrongly (R1)"
        )
    capacity = list(hands)
    dealt, placed = _deal_located(known.located, capacity, rng)
    rest = [card for card in known.unknown if card not in placed]
    rng.shuffle(rest)
    for seat, free in enumerate(capacity):
        dealt[seat].extend(rest[:free])
        del rest[:free]
    discard: list[Card] = []
    face_down: set[Card] = set()
    down = set(view.face_down)
    for index, shown in enumerate(view.discard):
        real = rest.pop() if shown is None else shown
        discard.append(real)
        if index in down:
            face_down.add(real)
    pending = view.pending
    if pending_size:
        pending = (rest.pop(), rest.pop())
    deck = rest  # what is left, in a random order; the top of the deck is the end
    dealt[view.player] = list(view.hand)
    return _game(view, deck, discard, face_down, dealt, pending, rng.getrandbits(64))


def _deal_located(
    located: Sequence[tuple[Card, frozenset[int]]], capacity: list[int], rng: random.Random
) -> tuple[list[list[Card]], set[Card]]:
    """Deal the located cards into the seats' hands, uniformly over the deals that fit.

    Every way of putting the located cards into free hand places, each card in
    one of its possible seats, is equally likely (as it is when the whole deal
    is uniform over the deals consistent with the view): a card goes to a seat
    with a chance proportional to the room left there times the ways the cards
    after it can still be placed. Constraints that cannot all hold together
    (only possible for an inconsistent history) are dealt one by one instead,
    dropping a card's constraint when its seats are full. ``capacity`` (the
    free places per seat) is updated; returns the cards dealt per seat and the
    set of cards placed.
    """
    dealt: list[list[Card]] = [[] for _ in capacity]
    if not located:
        return dealt, set()
    order = sorted(located, key=lambda item: (len(item[1]), item[0].index))
    seats_of = [
        tuple(seat for seat in sorted(seats) if 0 <= seat < len(capacity)) for _, seats in order
    ]
    ways = _ways_counter(seats_of)
    room = tuple(capacity)
    if ways(0, room) == 0:
        for (card, _), seats in zip(order, seats_of, strict=True):
            free = [seat for seat in seats if capacity[seat]]
            if free:
                seat = free[rng.randrange(len(free))] if len(free) > 1 else free[0]
                capacity[seat] -= 1
                dealt[seat].append(card)
        return dealt, {card for cards in dealt for card in cards}
    for index, ((card, _), seats) in enumerate(zip(order, seats_of, strict=True)):
        weights = [
            (seat, room[seat] * ways(index + 1, _less(room, seat))) for seat in seats if room[seat]
        ]
        pick = rng.randrange(sum(weight for _, weight in weights))
        chosen = weights[-1][0]
        for seat, weight in weights:
            if pick < weight:
                chosen = seat
                break
            pick -= weight
        room = _less(room, chosen)
        dealt[chosen].append(card)
    capacity[:] = room
    return dealt, {card for card, _ in order}


def _ways_counter(seats_of: Sequence[tuple[int, ...]]) -> Callable[[int, tuple[int, ...]], int]:
    """``ways(index, room)``: the ways to put cards ``index`` on into the free places ``room``,
    card ``i`` into one of the seats ``seats_of[i]``; memoised for one deal.

    When every card from ``index`` on has the same seats (the usual case: the
    cards a hidden gift left in any of the same hands), the count is the
    falling factorial of their room, without recursion.
    """
    last = len(seats_of)
    shared: list[tuple[int, ...] | None] = [None] * (last + 1)
    for index in range(last - 1, -1, -1):
        after = shared[index + 1]
        if index == last - 1 or after == seats_of[index]:
            shared[index] = seats_of[index]
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def ways(index: int, room: tuple[int, ...]) -> int:
        if index == last:
            return 1
        seats = shared[index]
        if seats is not None:
            free = sum(room[seat] for seat in seats)
            count = 1
            for taken in range(last - index):
                count *= free - taken
            return count
        key = (index, room)
        found = memo.get(key)
        if found is None:
            found = 0
            for seat in seats_of[index]:
                if room[seat]:
                    found += room[seat] * ways(index + 1, _less(room, seat))
            memo[key] = found
        return found

    return ways


def _less(room: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``room`` with one place fewer at ``seat``."""
    return (*room[:seat], room[seat] - 1, *room[seat + 1 :])


def _game(
    view: PlayerView,
    deck: list[Card],
    discard: list[Card],
    face_down: set[Card],
    hands: Sequence[Iterable[Card]],
    pending: tuple[Card, Card] | None,
    rng_state: int,
) -> Game:
    """The game with these cards and the view's public state (as the state reader builds one)."""
    return Game.assemble(
        catalogue=view.catalogue,
        players=view.players,
        seed=0,
        rng=GameRng(rng_state),
        deck=deck,
        discard=discard,
        face_down=face_down,
        hands=[set(hand) for hand in hands],
        tables=[{novel.novel: novel.cards for novel in table} for table in view.tables],
        supply=dict(view.supply),
        flag=view.flag,
        phase=view.phase,
        to_move=view.to_move,
        current=view.current,
        pending=pending,
        turn=view.turn,
        passes=view.passes,
        trigger=view.trigger,
        turns_left=view.turns_left,
        end_reason=view.end_reason,
    )


# ----------------------------------------------------------------------
# Reading the public history
# ----------------------------------------------------------------------
class _InconsistentError(Exception):
    """The public history does not replay to the view."""


def _replay(view: PlayerView) -> dict[Card, set[int]] | None:
    """Where the public history places hidden cards; ``None`` if it does not fit the view.

    The replay follows the deck and discard pile by count (R10, R11), with the
    identity of a discard when the history names it, so that a ``take`` can
    tell which card it took.
    """
    players, player = view.players, view.player
    deck = len(DECK) - sum(DEAL_SIZES[:players])
    pile: list[Card | None] = []
    located: dict[Card, set[int]] = {}
    try:
        for seat, text in view.history:
            words = text.split()
            keyword = words[0] if words else ""
            if keyword == "keep":
                drops = DEAL_SIZES[seat] - KEEP_SIZE
                named: Sequence[Card | None] = [None] * drops
                if seat == player:
                    move = Move.parse(text)
                    if isinstance(move, Keep) and len(move.discard) == drops:
                        named = move.discard
                pile.extend(named)
            elif keyword == "draw":
                if deck + len(pile) == 0:
                    raise _InconsistentError
                for _ in range(1 if deck + len(pile) == 1 else 2):
                    if deck == 0:  # R11: the discard pile is reshuffled when a draw needs it
                        deck, pile = len(pile), []
                    deck -= 1
            elif keyword == "choose":
                pile.append(None)  # face up, but the history does not name it
            elif keyword == "take":
                if not pile:
                    raise _InconsistentError
                top = pile.pop()
                if top is not None:
                    _place(located, top, seat, player)
            elif keyword == "read":
                move = Move.parse(text)
                if not isinstance(move, Read):
                    raise _InconsistentError
                _place(located, move.card, seat, player)
            elif keyword == "publish":
                _publish(located, words, seat, player)
            elif keyword == "flag":
                move = Move.parse(text)
                if not isinstance(move, TakeFlag):
                    raise _InconsistentError
                located.pop(move.card, None)
            elif keyword != "pass":
                raise _InconsistentError
        if deck != view.deck_size or len(pile) != len(view.discard):
            raise _InconsistentError
        for mine, shown in zip(pile, view.discard, strict=True):
            if mine is not None and shown is not None and mine != shown:
                raise _InconsistentError
    except (_InconsistentError, ValueError, IndexError):
        return None
    return located


def _place(located: dict[Card, set[int]], card: Card, seat: int, player: int) -> None:
    """``card`` went to ``seat``'s hand in plain sight."""
    if seat == player:
        located.pop(card, None)
    else:
        located[card] = {seat}


def _publish(located: dict[Card, set[int]], words: list[str], seat: int, player: int) -> None:
    """A publish in public notation: played cards leave the hand, gifts move (R4, R5, R16)."""
    section = "played"
    hidden_to: list[int] = []
    for word in words[2:]:
        lowered = word.lower()
        if lowered in ("cite", "gift"):
            section = lowered
        elif section == "played":
            located.pop(Card.parse(word), None)
        elif section == "gift":
            to_text, _, card_text = word.partition(":")
            to = int(to_text)
            if card_text == HIDDEN:
                hidden_to.append(to)
            else:
                _place(located, Card.parse(card_text), to, player)
    if hidden_to:  # a gift between two other seats: the giver's known cards may have moved
        for seats in located.values():
            if seat in seats:
                seats.update(hidden_to)
