"""Determinizations: whole games sampled from what one player knows (R16).

A player sees their own hand, the table, the supply, the face-up discards,
their own face-down discards, the hand sizes and the public history
(:class:`~pastiche_core.engine.view.PlayerView`). Everything else — the other hands,
the order of the deck, the other seats' face-down discards and the two cards
another seat is choosing between — is hidden. A *determinization* deals the
hidden cards at random, consistently with everything the player has seen, and
builds a full :class:`~pastiche_core.engine.game.Game` from the result, so that the
rules engine applies as it does to a real game. It is one possible truth, not
the truth: a search averages over many of them.

What the player has seen constrains the deal beyond the visible cards:
:class:`~pastiche_core.engine.knowledge.Knowledge` reads the view's public history
(replayed through the engine's records and notation reader) and places some
hidden cards in other hands:

* a card another seat **took** from the discard pile face up, or one of the
  player's own face-down setup discards, is in that seat's hand;
* a card another seat **read** from a Published novel is in that seat's hand;
* a card the player **gave** as a gift is in the recipient's hand;
* each of these stays known until the seat plays it (publish), puts it under
  the End Flag, or gives it away: a gift between two other seats is hidden,
  so the card may then be in either hand (both seats stay possible).

The deal respects every hand size, and is uniform over the deals that respect
all of the above. A history that does not fit the view (a composed position,
a history from another game) is ignored: only the visible cards then
constrain the deal.

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
from collections.abc import Callable, Sequence

from ..data.cards import Card
from ..data.errors import InvalidStateError
from ..data.rng import GameRng
from ..engine.game import Game
from ..engine.game_internals import dealt as deal_game
from ..engine.knowledge import Knowledge, hidden_cards
from ..engine.rules import Phase
from ..engine.view import PlayerView

__all__ = ["Knowledge", "determinize"]


def _slots(view: PlayerView) -> tuple[list[int], list[int], int, int]:
    """The hidden places: hand sizes per other seat, hidden discard indexes, pending, deck."""
    hands = [0 if seat == view.player else size for seat, size in enumerate(view.hand_sizes)]
    hidden_discards = [index for index, card in enumerate(view.discard) if card is None]
    pending = 2 if view.phase is Phase.CHOOSE and view.pending is None else 0
    return hands, hidden_discards, pending, view.deck_size


def determinize(view: PlayerView, rng: random.Random, knowledge: Knowledge | None = None) -> Game:
    """A full game consistent with ``view``: the hidden cards dealt at random (see the module).

    ``knowledge`` is :meth:`Knowledge.of(view) <pastiche_core.engine.knowledge.Knowledge.of>`,
    given to save reading the view again when sampling many times. Each of the 49 cards is in exactly one
    place; the player's hand, the table, the supply, the face-up discards,
    the phase and the counters are the view's; cards the history places in a
    seat's hand are dealt there; the game's generator (which decides future
    reshuffles, R14) is seeded from ``rng``. The game has no history. A view
    whose cards do not add up to the 49 (one built by hand) raises
    :class:`~pastiche_core.data.errors.InvalidStateError`.

    >>> import random
    >>> from pastiche_core import Game
    >>> view = Game(players=3, seed=7).view(2)
    >>> one, two = determinize(view, random.Random(5)), determinize(view, random.Random(5))
    >>> one == two, one.hand(2) == view.hand, one.deck_size == view.deck_size
    (True, True, True)
    """
    known = knowledge if knowledge is not None else Knowledge.of(view)
    unknown = hidden_cards(view)
    hands, hidden_discards, pending_size, deck_size = _slots(view)
    slots = sum(hands) + len(hidden_discards) + pending_size + deck_size
    if slots != len(unknown):
        raise InvalidStateError(
            f"the view hides {len(unknown)} cards but has {slots} hidden places "
            "(hands, face-down discards, drawn cards, deck): it accounts for the 49 cards "
            "wrongly (R1)"
        )
    capacity = list(hands)
    dealt, placed = _deal_located(known.located, capacity, rng)
    rest = [card for card in unknown if card not in placed]
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
    return deal_game(
        Game,
        view,
        deck=deck,
        discard=discard,
        face_down=face_down,
        hands=dealt,
        pending=pending,
        rng=GameRng(rng.getrandbits(64)),
    )


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
