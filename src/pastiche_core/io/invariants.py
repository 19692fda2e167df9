"""What every game state reachable in play satisfies, checked in one place (R1–R12).

A state loaded without its history (a *composed* position: a puzzle, a test, a
frontend's own save) cannot be replayed, so :func:`check_invariants` is what
keeps an impossible one out of the engine. It raises
:class:`~pastiche_core.data.errors.InvalidStateError` for the first broken
invariant; the message starts with the JSON path of the offending value in the
state format (:mod:`pastiche_core.io.state_json`) and names the ruling:

>>> import json
>>> from pastiche_core import Game
>>> from pastiche_core.io.state_json import state_to_dict
>>> game = Game(players=3, seed=7)
>>> check_invariants(game)
>>> data = state_to_dict(game); data["supply"]["kind-5"] = 0
>>> Game.from_json(json.dumps(data))  # the reader checks what it loads
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidStateError: $.supply.kind-5: 0 in the supply and 0 on the tables make 0
    copies of kind-5, the catalogue has 2: every Novel card is in the supply or on a table (R6)

The invariants, in the order they are checked:

* **Cards (R1).** Each of the 49 Story cards lies in exactly one place: deck,
  discard pile, a hand, a novel on a table, the drawn cards or under the End Flag.
* **Tables (R2, R4, R7, R11, R12).** Every novel on a table is a publishable
  Novel of the catalogue (never the End Flag) and keeps at least one card; its
  cards are part of some rank multiset that meets the Novel's requirement
  exactly, drawn from the ranks of the 49 cards: a Published novel lost cards
  only to Reads, a Masterpiece keeps one of the cards it was published with.
* **Supply (R6).** For each Novel, the copies in the supply plus the copies on
  the tables make the catalogue's copies: Novel cards never leave the game.
* **Phase and seats (R10–R12).** Drawn cards wait exactly in the ``choose``
  phase; an end reason (``countdown`` or ``all-pass``) is given exactly when
  the game is over; the countdown runs exactly when there is a trigger player,
  who alone may hold the End Flag; the End Flag is in the supply until the
  trigger player takes it (or loses it); in ``action`` and ``choose`` the
  current player is to move, in ``flag`` the trigger player, who has a card.
* **Setup (R10).** The ``keep`` phase happens at turn 0 with seat 0 to start,
  one seat at a time from seat 2: every seat not yet done holds the cards dealt
  to it (3, 3, 4, 4, 5), every seat done holds 3; the discard pile is exactly
  the face-down cards discarded so far; nobody has published or passed.
* **Passes (R11).** Fewer passes in succession than players, except in a game
  ended by ``all-pass``, which has exactly one per player; the ``flag`` phase
  follows a turn that was not a pass. A pass is legal only with no card to draw
  or take and no Published novel to read, and changes nothing, so while passes
  are counted the deck and discard pile are empty and every novel is a
  Masterpiece.
* **Countdown (R12).** While the game is not over, from 1 to 2n − 1 turns are
  left (exactly 2n − 1 in the ``flag`` phase); a ``countdown`` end has a trigger
  player and 0 turns left; an ``all-pass`` end stops the countdown before 0.
* **Discard pile (R10, R11).** Face-down cards are setup discards only (at most
  1, 2 or 4 for 3, 4 or 5 players) and lie in a block at the bottom, under every
  face-up card; while any remains, the pile was never reshuffled, so the deck
  and the drawn cards hold no more than the deal left in the deck.
* **Turns (R10, R11).** After setup the deck, discard pile and drawn cards hold
  at most 49 − 3n cards and each Write takes one of them for good; each Write,
  publish and pass ends a turn, so the turn counter is at least the Writes,
  publishes and current passes the state shows; with no novel published and
  cards left to draw, every turn so far was a Write (Reads need a Published
  novel, passes an empty deck and pile). At turn 0 every hand has 3 cards and
  the discard pile is the face-down setup discards. Seat 0 plays
  turn 0 and seats follow in order: the current player is seat ``turn mod n``
  (in ``flag`` and ``over``, the seat whose turn just ended).
* **Trigger (R12).** Masterpiece points never decrease and the trigger is
  checked at the end of every turn, so a trigger player exists exactly when
  some player has Masterpieces worth 15 or more, and the trigger player has.
* **A move to make (R11).** A game that is not over has a legal move for the
  player to move.

For a user-defined pattern (R3) the search for a completion of a novel's cards
tries at most 5,000 candidates, fewest extra cards first; a novel whose
completion is not found within them is accepted.
"""

from __future__ import annotations

import functools
from collections import Counter

from ..data.cards import DECK, format_cards
from ..data.patterns import (
    OfAKind,
    Pairs,
    Pattern,
    RankCounts,
    Straight,
    Total,
    rank_counts,
    sub_multisets,
)
from ..engine.game import Game
from ..engine.game_internals import insides, stale_summary
from ..engine.moves import Pass
from ..engine.rules import RULEBOOK, Phase, Rules
from ._fields import Ledger, fail, member

__all__ = ["check_invariants"]

_FULL: RankCounts = rank_counts(card.rank for card in DECK)
_BUILT_IN = (Straight, OfAKind, Pairs, Total)
_BuiltIn = Straight | OfAKind | Pairs | Total
_COMPLETION_BUDGET = 5_000
_END_REASONS = ("countdown", "all-pass")


def check_invariants(game: Game) -> None:
    """Raise :class:`~pastiche_core.data.errors.InvalidStateError` if ``game`` cannot occur in play.

    Every state reachable by legal moves from a deal passes; the message of a
    failure starts with the JSON path of the offending value in the state
    format and names the ruling (see the module for the list of invariants).

    >>> import json
    >>> from pastiche_core import Game, play_game
    >>> from pastiche_core.io.state_json import state_to_dict
    >>> check_invariants(play_game(players=4, seed=3))
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8")
    >>> data = state_to_dict(game); data["turn"] = 4; del data["history"]
    >>> Game.from_json(json.dumps(data))  # the reader checks what it loads
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: $.turn: with no novel published and cards left to
        draw, every turn was a Write (R11): 0 Writes make turn 0, got 4
    """
    _check_scalars(game)
    _check_cards(game)
    _check_tables(game)
    _check_supply(game)
    _check_phase(game)
    if game.phase is Phase.KEEP:
        _check_setup(game)
    else:
        _check_passes(game)
        _check_countdown(game)
        _check_discard(game)
        _check_turns(game)
        _check_trigger(game)
    if game.phase is not Phase.OVER and not _has_legal_move(game):
        raise fail(
            "$.phase",
            f"player {game.to_move} has no legal move in the {game.phase.value} phase, "
            "yet the game is not over (R11)",
        )


# ----------------------------------------------------------------------
# Values, cards, tables and supply
# ----------------------------------------------------------------------
def _check_scalars(game: Game) -> None:
    """Plain ranges, for a game built in Python (the JSON readers check them first)."""
    inside = insides(game)
    players = game.players
    if not isinstance(game.phase, Phase):
        raise fail("$.phase", f"expected a Phase, got {game.phase!r}")
    for name in ("to_move", "current"):
        value = getattr(inside.scalars, name)
        if not 0 <= value < players:
            raise fail(f"$.{name}", f"expected a player index from 0 to {players - 1}, got {value}")
    if inside.trigger is not None and not 0 <= inside.trigger < players:
        raise fail("$.trigger", f"expected a player index from 0 to {players - 1}")
    if game.turn < 0:
        raise fail("$.turn", f"expected an integer >= 0, got {game.turn}")
    if not 0 <= inside.passes <= players:
        raise fail("$.passes", f"expected an integer from 0 to {players}, got {inside.passes}")
    if inside.turns_left is not None and not 0 <= inside.turns_left <= 2 * players - 1:
        raise fail(
            "$.turns_left",
            f"expected an integer from 0 to {2 * players - 1}, got {inside.turns_left} (R12)",
        )
    if inside.end_reason is not None and inside.end_reason not in _END_REASONS:
        raise fail(
            "$.end_reason",
            f"expected null, 'countdown' or 'all-pass', got {inside.end_reason!r}",
        )


def _has_legal_move(game: Game) -> bool:
    inside = insides(game)
    if game.phase is Phase.ACTION:
        # Write, Read, or else Pass (R11): asked of the engine without listing publishes.
        return inside.can_write() or inside.can_read() or game.is_legal(Pass())
    return bool(game.legal_moves)


def _check_cards(game: Game) -> None:
    inside = insides(game)
    cards = [*inside.deck, *game.discard, *(inside.pending or ())]
    for p in range(game.players):
        cards += game.hand(p)
        for novel in game.table(p):
            cards += novel.cards
    if inside.flag is not None:
        cards.append(inside.flag[1])
    if len(cards) == len(DECK) and len(set(cards)) == len(DECK):
        return
    # Something is wrong: go again, noting where each card lies.
    ledger = Ledger()
    for i, card in enumerate(inside.deck):
        ledger.place(str(card), f"$.deck[{i}]")
    for i, card in enumerate(game.discard):
        ledger.place(str(card), f"$.discard[{i}].card")
    for p in range(game.players):
        for i, card in enumerate(game.hand(p)):
            ledger.place(str(card), f"$.hands[{p}][{i}]")
    for p in range(game.players):
        for i, novel in enumerate(game.table(p)):
            for j, card in enumerate(novel.cards):
                ledger.place(str(card), f"$.tables[{p}][{i}].cards[{j}]")
    for i, card in enumerate(inside.pending or ()):
        ledger.place(str(card), f"$.pending[{i}]")
    if inside.flag is not None:
        ledger.place(str(inside.flag[1]), "$.flag.card")
    ledger.check_complete()


def _check_tables(game: Game) -> None:
    cat = game.catalogue
    stale = stale_summary(game)  # what views and move generation read is kept between changes
    if stale is not None:
        raise fail(
            f"$.tables[{stale}]",
            "what the game keeps of this seat (table summary, usable flags, Published novels, "
            "Reads, public texts or history) is out of date",
        )
    if not insides(
        game
    ).card_table_is_current():  # the kernels read it: it must say where every card is
        raise fail("$", "the kept card table does not say where the cards are")
    for p in range(game.players):
        for i, novel in enumerate(game.table(p)):
            where = f"$.tables[{p}][{i}]"
            if novel.novel not in cat:
                raise fail(
                    f"{where}.novel",
                    f"unknown novel id {novel.novel!r} in catalogue {cat.name!r} (R2)",
                )
            spec = cat[novel.novel]
            if spec.pattern is None:
                raise fail(f"{where}.novel", "the End Flag cannot be published (R12)")
            if not novel.cards:
                raise fail(f"{where}.cards", "a novel on the table keeps at least one card (R11)")
            size = spec.pattern.size
            if size is not None and len(novel.cards) > size:
                raise fail(
                    f"{where}.cards",
                    f"{spec.id} takes {size} cards, this novel has {len(novel.cards)} (R4)",
                )
            ranks = tuple(sorted(card.rank for card in novel.cards))
            if not _fits(spec.pattern, ranks):
                raise fail(
                    f"{where}.cards",
                    f"{format_cards(novel.cards, sort=False)} cannot all be part of one "
                    f"{spec.name} ({spec.requirement}): a novel keeps only cards it was "
                    "published with (R4, R11)",
                )


def _fits(pattern: Pattern, ranks: tuple[int, ...]) -> bool:
    """Whether ``ranks`` (sorted) are part of a multiset of deck ranks that matches ``pattern``."""
    # Exactly a built-in kind: a subclass may change what matches.
    if isinstance(pattern, _BUILT_IN) and type(pattern) in _BUILT_IN:
        return _fits_built_in(pattern, ranks)
    return _completes(pattern, ranks)


@functools.lru_cache(maxsize=4096)
def _fits_built_in(pattern: _BuiltIn, ranks: tuple[int, ...]) -> bool:
    need = rank_counts(ranks)
    return any(
        all(have >= want for have, want in zip(combo, need, strict=True))
        for combo in _matches(pattern)
    )


@functools.lru_cache(maxsize=64)
def _matches(pattern: _BuiltIn) -> tuple[RankCounts, ...]:
    # The built-in patterns list every match within the deck's ranks quickly (at most ~1,400).
    return tuple(rank_counts(combo) for combo in pattern.combinations(_FULL))


def _completes(pattern: Pattern, ranks: tuple[int, ...]) -> bool:
    """A user-defined pattern: some extra deck ranks complete ``ranks`` (within a budget)."""
    need = rank_counts(ranks)
    rest = tuple(have - want for have, want in zip(_FULL, need, strict=True))
    if min(rest) < 0:
        return False
    size = pattern.size
    if size is not None and len(ranks) >= size:
        return len(ranks) == size and pattern.matches(ranks)
    # Fewest extra cards first: a pattern of no fixed size is most often met by few.
    counts = [size - len(ranks)] if size is not None else range(len(DECK) - len(ranks) + 1)
    tried = 0
    for count in counts:
        extras = sub_multisets(rest, count) if count else iter([()])
        for extra in extras:
            if pattern.matches(tuple(sorted(ranks + extra))):
                return True
            tried += 1
            if tried >= _COMPLETION_BUDGET:
                return True  # undecided: accepted rather than reject a state that may be real
    return False


def _check_supply(game: Game) -> None:
    cat = game.catalogue
    supply = game.supply
    for novel in supply:
        if novel not in cat:
            raise fail(
                member("$.supply", novel),
                f"unknown novel id {novel!r} in catalogue {cat.name!r} (R2)",
            )
    held = Counter(novel.novel for p in range(game.players) for novel in game.table(p))
    for spec in cat.specs:
        where = member("$.supply", spec.id)
        if spec.id not in supply:
            raise fail(where, "missing: every Novel of the catalogue has a supply count (R6)")
        if spec.pattern is None:
            continue  # the End Flag: see _check_phase
        left, on_tables = supply[spec.id], held[spec.id]
        if left + on_tables != spec.copies:
            raise fail(
                where,
                f"{left} in the supply and {on_tables} on the tables make {left + on_tables} "
                f"copies of {spec.id}, the catalogue has {spec.copies}: every Novel card is "
                "in the supply or on a table (R6)",
            )


# ----------------------------------------------------------------------
# Phase, setup, passes, countdown
# ----------------------------------------------------------------------
def _check_phase(game: Game) -> None:
    """Phase, drawn cards, countdown and End Flag agree with one another (R10–R12)."""
    inside = insides(game)
    phase, to_move, trigger = game.phase, game.to_move, inside.trigger
    if phase is Phase.CHOOSE and inside.pending is None:
        raise fail("$.pending", "the choose phase needs the two drawn cards (R11), got null")
    if phase is not Phase.CHOOSE and inside.pending is not None:
        raise fail(
            "$.pending",
            f"drawn cards wait only in the choose phase (R11), the phase is {phase.value!r}",
        )
    if (phase is Phase.OVER) != (inside.end_reason is not None):
        raise fail(
            "$.end_reason",
            f"an end reason is given exactly when the game is over (R12), "
            f"the phase is {phase.value!r}",
        )
    if (trigger is None) != (inside.turns_left is None):
        raise fail("$.turns_left", "the countdown runs exactly when a trigger player exists (R12)")
    if phase in (Phase.ACTION, Phase.CHOOSE) and to_move != inside.current:
        raise fail(
            "$.to_move",
            f"in the {phase.value} phase the current player ({inside.current}) is to move, "
            f"got {to_move}",
        )
    if phase is Phase.OVER and to_move != inside.current:
        raise fail(
            "$.to_move",
            f"a game ends on the turn of the current player ({inside.current}), who stays "
            f"to move (R12), got {to_move}",
        )
    if phase is Phase.FLAG:
        if to_move != trigger:
            raise fail(
                "$.to_move",
                f"in the flag phase the trigger player ({trigger}) is to move (R12), got {to_move}",
            )
        if not game.hand(to_move):
            raise fail(
                f"$.hands[{to_move}]",
                "the trigger player needs a card to put under the End Flag (R12)",
            )
        if inside.flag is not None:
            raise fail("$.flag", "the End Flag is not held while the trigger player takes it (R12)")
    if inside.flag is not None and inside.flag[0] != trigger:
        raise fail(
            "$.flag.player",
            f"only the trigger player takes the End Flag (R12): holder {inside.flag[0]}, "
            f"trigger {trigger}",
        )
    flag_id = game.catalogue.end_flag.id
    expected = 1 if trigger is None or phase is Phase.FLAG else 0
    if game.supply[flag_id] != expected:
        where = "is still in" if expected else "has left"
        raise fail(
            member("$.supply", flag_id),
            f"the End Flag {where} the supply at this point (R12): expected {expected}, "
            f"got {game.supply[flag_id]}",
        )


def _setup_discards(players: int, seats_done: int | None = None, rules: Rules = RULEBOOK) -> int:
    """Cards discarded face down at setup by the seats before ``seats_done`` (default: all).

    By the rulebook, from seat 2 on, each seat keeps 3 of the cards dealt to it (R10).

    >>> _setup_discards(3), _setup_discards(4), _setup_discards(5), _setup_discards(5, 4)
    (1, 2, 4, 2)
    >>> _setup_discards(3, rules=Rules(keep_size=2))
    4
    """
    done = players if seats_done is None else seats_done
    deals, keep = rules.deal_sizes, rules.keep_size
    return sum(deals[seat] - keep for seat in rules.keepers(players) if seat < done)


def _check_setup(game: Game) -> None:
    """The keep phase: nothing has happened but the deal and the keeps so far (R10)."""
    inside = insides(game)
    seat = game.to_move
    if game.turn != 0:
        raise fail(
            "$.phase",
            f"setup (the keep phase) comes before the first turn (R10), "
            f"but the state is at turn {game.turn}",
        )
    rules = game.rules
    keepers = rules.keepers(game.players)  # seats 2 onward by the rulebook
    if seat not in keepers:
        if keepers and keepers == tuple(range(keepers[0], game.players)):
            which = f"from seat {keepers[0]} on"
        else:
            which = f"by the seats dealt more than {rules.keep_size} cards {list(keepers)}"
        raise fail("$.to_move", f"setup keeps are made {which} (R10), got {seat}")
    if inside.current != 0:
        raise fail(
            "$.current",
            f"seat 0 plays the first turn after setup (R10), got {inside.current}",
        )
    for p in range(game.players):
        hand = len(game.hand(p))
        expected = rules.keep_size if p < seat else rules.deal_sizes[p]
        if hand != expected:
            what = "it kept" if p < seat else "dealt to it"
            raise fail(
                f"$.hands[{p}]",
                f"during setup seat {p} holds the {expected} cards {what} (R10), got {hand}",
            )
    for i, card in enumerate(game.discard):
        if not inside.is_face_down(card):
            raise fail(f"$.discard[{i}].face_up", "setup discards lie face down (R10)")
    discarded = _setup_discards(game.players, seat, rules)
    if len(game.discard) != discarded:
        raise fail(
            "$.discard",
            f"before seat {seat} keeps, the discard pile holds the {discarded} cards "
            f"discarded at setup so far (R10), got {len(game.discard)}",
        )
    for p in range(game.players):
        if game.table(p):
            raise fail(f"$.tables[{p}]", "nobody publishes during setup (R10)")
    if inside.passes:
        raise fail("$.passes", f"nobody passes during setup (R10), got {inside.passes}")
    if inside.trigger is not None:
        raise fail("$.trigger", "the end cannot be triggered during setup (R10, R12)")


def _check_passes(game: Game) -> None:
    inside = insides(game)
    players, passes = game.players, inside.passes
    if inside.end_reason == "all-pass":
        if passes != players:
            raise fail(
                "$.passes",
                f"an all-pass end comes when all {players} players pass in succession (R11), "
                f"got {passes}",
            )
    elif passes >= players:
        raise fail(
            "$.passes",
            f"{passes} passes in succession end the game at once (R11), "
            f"but the phase is {game.phase.value!r}",
        )
    if game.phase is Phase.FLAG and passes:
        raise fail(
            "$.passes",
            f"the end is triggered by a publish or a Read, not a pass (R11, R12), got {passes}",
        )
    if passes:
        reason = None
        if inside.deck:
            reason = f"{len(inside.deck)} cards in the deck"
        elif game.discard:
            reason = f"{len(game.discard)} cards in the discard pile"
        elif inside.can_read():
            reason = "a Published novel to read"
        if reason is not None:
            raise fail(
                "$.passes",
                "a player passes only when no card is left to draw or take and no "
                f"Published novel to read, and a pass changes nothing (R11): {passes} "
                f"passes in succession with {reason}",
            )


def _check_countdown(game: Game) -> None:
    inside = insides(game)
    longest = 2 * game.players - 1
    left = inside.turns_left
    if inside.end_reason == "countdown":
        if inside.trigger is None:
            raise fail("$.end_reason", "a countdown end needs a trigger player (R12)")
        if left != 0:
            raise fail(
                "$.turns_left",
                f"the countdown ends the game when no turn is left (R12), got {left} left",
            )
    elif left is not None:
        if left < 1:
            raise fail(
                "$.turns_left",
                f"the countdown ends the game when no turn is left (R12): 0 turns left, "
                f"but the phase is {game.phase.value!r}",
            )
        if game.phase is Phase.FLAG and left != longest:
            raise fail(
                "$.turns_left",
                f"the End Flag is taken before the {longest} turns of the countdown begin "
                f"(R12), got {left} left",
            )


# ----------------------------------------------------------------------
# Discard pile, turns and the trigger
# ----------------------------------------------------------------------
def _check_discard(game: Game) -> None:
    inside = insides(game)
    face_up_below: int | None = None
    face_down = 0
    for i, card in enumerate(game.discard):
        if not inside.is_face_down(card):
            if face_up_below is None:
                face_up_below = i
        elif face_up_below is not None:
            raise fail(
                f"$.discard[{i}].face_up",
                f"face-down setup discards lie below every face-up card (R10), "
                f"but $.discard[{face_up_below}] under it is face up",
            )
        else:
            face_down += 1
    players = game.players
    most = _setup_discards(players, rules=game.rules)
    if face_down > most:
        raise fail(
            "$.discard",
            f"only the {most} setup discards of {players} players lie face down (R10), "
            f"got {face_down}",
        )
    dealt_deck = len(DECK) - sum(game.rules.deal_sizes[:players])
    undrawn = len(inside.deck) + len(inside.pending or ())
    if face_down and undrawn > dealt_deck:
        raise fail(
            "$.deck",
            f"face-down setup discards remain, so the discard pile was never reshuffled (R11) "
            f"and the deck and drawn cards hold at most the {dealt_deck} cards the deal left, "
            f"got {undrawn}",
        )


def _check_turns(game: Game) -> None:
    inside = insides(game)
    players, turn = game.players, game.turn
    # After setup, deck, discard pile and drawn cards only lose cards, one per Write (R11).
    keep = game.rules.keep_size
    after_setup = len(DECK) - keep * players
    undrawn = len(inside.deck) + len(game.discard) + len(inside.pending or ())
    if undrawn > after_setup:
        raise fail(
            "$.deck",
            f"after setup the deck, discard pile and drawn cards hold at most {after_setup} "
            f"cards and only lose cards (R10, R11), got {undrawn}",
        )
    writes = after_setup - undrawn
    publishes = sum(len(game.table(p)) for p in range(players))
    if turn < writes + publishes + inside.passes:
        raise fail(
            "$.turn",
            f"{turn} turns are too few for the {writes} Writes, {publishes} publishes and "
            f"{inside.passes} passes the state shows, one turn each (R11)",
        )
    # Reads need a publish first, and passes an empty deck and discard pile (R11).
    if not publishes and undrawn and turn != writes:
        raise fail(
            "$.turn",
            f"with no novel published and cards left to draw, every turn was a Write (R11): "
            f"{writes} Writes make turn {writes}, got {turn}",
        )
    if turn == 0:
        for p in range(players):
            if len(game.hand(p)) != keep:
                raise fail(
                    f"$.hands[{p}]",
                    f"at turn 0 every player holds the {keep} cards kept at setup (R10), "
                    f"got {len(game.hand(p))}",
                )
        hidden = sum(1 for card in game.discard if inside.is_face_down(card))
        setup = _setup_discards(players, rules=game.rules)
        if hidden != len(game.discard) or hidden != setup:
            raise fail(
                "$.discard",
                f"at turn 0 the discard pile is the {setup} face-down setup "
                f"discards (R10), got {len(game.discard)} cards, {hidden} face down",
            )
    ended = game.phase in (Phase.FLAG, Phase.OVER)
    if ended and turn == 0:
        raise fail("$.turn", f"the {game.phase.value} phase follows a turn, but turn is 0 (R12)")
    seat = (turn - 1) % players if ended else turn % players
    if inside.current != seat:
        which = f"the turn just played, turn {turn - 1}," if ended else f"turn {turn}"
        raise fail(
            "$.current",
            f"seat 0 plays turn 0 and seats follow in order (R10, R11): {which} is "
            f"seat {seat}'s, got {inside.current}",
        )


def _check_trigger(game: Game) -> None:
    inside = insides(game)
    trigger, threshold = inside.trigger, game.rules.end_threshold
    if trigger is not None:
        points = inside.masterpiece_points(trigger)
        if points < threshold:
            raise fail(
                "$.trigger",
                f"player {trigger} triggered the end with {points} Masterpiece points, "
                f"fewer than {threshold} (R12)",
            )
        return
    for p in range(game.players):
        points = inside.masterpiece_points(p)
        if points >= threshold:
            raise fail(
                "$.trigger",
                f"player {p} has {points} Masterpiece points: reaching {threshold} "
                "triggers the end at the end of that turn (R12), got null",
            )
