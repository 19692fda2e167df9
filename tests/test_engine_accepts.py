"""The rules engine accepts exactly the solver's options (R4–R8).

Positions come from random games of 3 to 5 players, played with uniformly
random legal moves (``legal[rng.randrange(len(legal))]``), taken at every turn
action. On each of them:

* every option of the fast engine (a sample, capped per position), turned into
  a move by :func:`~pastiche_core.solver.gifts.to_publish`, is legal in the game, and
  applying it moves exactly the played cards under the new Novel, the gift
  cards to the right hands, makes the Novel a Masterpiece iff one card was
  played (R7) and takes one copy from the supply (R6);
* near misses of those options — an extra card, a Published novel cited, a gift
  missing or sent to the wrong player, an unavailable Novel — are rejected by
  both :func:`~pastiche_core.solver.options.check_option` and the game, naming the
  same ruling;
* the R8 keys of the game's card-level publishes are exactly the keys of the
  solver's options: the rules engine and the solver agree on what can be
  published.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

import pytest
from builders import assert_illegal

from pastiche_core import Card, Game, Gift, NovelRef, Phase, Publish
from pastiche_core.engine.game_internals import insides, publish_moves
from pastiche_core.solver.fast import options
from pastiche_core.solver.gifts import GiftPolicy, LowestCardsPolicy, MostOptionsPolicy, to_publish
from pastiche_core.solver.options import PublishOption, check_option, option_key
from pastiche_core.solver.position import Position

GAMES = [(players, seed) for players in (3, 4, 5) for seed in (11, 12, 13)]
"""(players, seed) of the random games the positions come from."""

OPTION_CAP = 8
"""Options checked per position (a deterministic sample when there are more)."""

PERTURBED_CAP = 3
"""Options perturbed per position."""

MAX_LEGAL = 20_000
"""Positions with more legal moves than this skip the card-level cross-check."""

MAX_MOVES = 400
"""Moves played per random game at most (random games end long before)."""

POLICIES: tuple[GiftPolicy, ...] = (LowestCardsPolicy(), MostOptionsPolicy())

OptionKey = tuple[str, tuple[int, ...], tuple[tuple[int, int], ...]]
T = TypeVar("T")


@functools.cache
def action_positions(players: int, seed: int) -> tuple[Game, ...]:
    """Copies of a random game at every turn action (treat them as read-only)."""
    game = Game(players, seed)
    rng = random.Random(seed)
    found: list[Game] = []
    for _ in range(MAX_MOVES):
        if game.is_over:
            break
        if game.phase is Phase.ACTION:
            found.append(game.copy())
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    return tuple(found)


def sample(items: list[T], cap: int, rng: random.Random) -> list[T]:
    """Up to ``cap`` items, always the first and last, the rest at random.

    >>> items = list(range(10))
    >>> picked = sample(items, 4, random.Random(0))
    >>> len(picked), picked[0], picked[-1]
    (4, 0, 9)
    """
    if len(items) <= cap:
        return items
    middle = rng.sample(items[1:-1], cap - 2)
    return [items[0], *middle, items[-1]]


def spare_cards(game: Game, move: Publish) -> list[Card]:
    """The mover's hand cards neither played nor given in ``move``."""
    used = set(move.played) | {gift.card for gift in move.gifts}
    return [card for card in game.hand(game.to_move) if card not in used]


# ----------------------------------------------------------------------
# Every option is accepted, with the right effects
# ----------------------------------------------------------------------
def assert_applied(game: Game, option: PublishOption, move: Publish) -> None:
    """Apply ``move`` on a copy and check every card and copy went where R4–R7 say."""
    player = game.to_move
    after = game.copy()
    after.apply(move)
    played = set(option.played)
    given = {gift.card for gift in move.gifts}
    assert set(move.played) == played
    assert not played & given
    # The played cards, and only they, lie under the new Novel (R4).
    novel = insides(after).novel(NovelRef(player, option.novel))
    assert novel is not None
    assert sorted(novel.cards) == sorted(option.played)
    # One card played: a Masterpiece at once (R7).
    assert novel.masterpiece == (len(option.played) == 1)
    # The gifts: the counts the option owes, each card to its owner's hand (R5).
    assert Counter(gift.to for gift in move.gifts) == Counter(dict(option.gifts))
    assert set(after.hand(player)) == set(game.hand(player)) - played - given
    for other in range(game.players):
        if other != player:
            received = {gift.card for gift in move.gifts if gift.to == other}
            assert set(after.hand(other)) == set(game.hand(other)) | received
    # Cited Masterpieces stay where they are (R4); other novels are untouched.
    for ref in move.cited:
        assert insides(after).novel(ref) == insides(game).novel(ref)
    for owner in range(game.players):
        before = {n.novel: n.cards for n in game.table(owner)}
        now = {n.novel: n.cards for n in after.table(owner)}
        if owner == player:
            now.pop(option.novel)
        assert now == before
    # One copy fewer in the supply (R6), the other Novels' copies unchanged.
    for spec in game.catalogue.publishable:
        change = 1 if spec.id == option.novel else 0
        assert after.supply[spec.id] == game.supply[spec.id] - change


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_every_option_is_a_legal_move_with_the_right_effects(players: int, seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for game in action_positions(players, seed):
        position = game.position()
        for index, option in enumerate(sample(options(position), OPTION_CAP, rng)):
            assert check_option(position, option) is None, option
            move = to_publish(option, position, POLICIES[index % len(POLICIES)])
            reason = game.violation(move)
            assert reason is None, f"{move} rejected: {reason}\n{game}"
            assert move in game.legal_moves
            assert_applied(game, option, move)
            checked += 1
    assert checked >= 20  # the games do reach positions with options


# ----------------------------------------------------------------------
# Near misses are rejected by both sides, for the same ruling
# ----------------------------------------------------------------------
Perturbation = tuple[str, Game, Position, PublishOption, Publish, str]
"""(what, game, position, option, move, ruling): a near miss both sides must reject."""


def perturbations(
    game: Game, position: Position, option: PublishOption, move: Publish, rng: random.Random
) -> list[Perturbation]:
    """Near misses of one accepted option, each as an option and as a game move."""
    player = game.to_move
    spare = spare_cards(game, move)
    found: list[Perturbation] = []
    if spare:
        extra = rng.choice(spare)
        bigger = dataclasses.replace(option, played=tuple(sorted((*option.played, extra))))
        found.append(
            (
                f"extra card: {extra}",
                game,
                position,
                bigger,
                Publish(move.novel, (*move.played, extra), move.cited, move.gifts),
                "R4",
            )
        )
    published = [n.ref for p in range(game.players) for n in game.table(p) if not n.masterpiece]
    if published:
        ref = rng.choice(published)
        owed = dict(option.gifts)
        gifts = move.gifts
        if ref.owner != player:
            owed[ref.owner] = owed.get(ref.owner, 0) + 1
            if spare:
                gifts = (*gifts, Gift(ref.owner, spare[0]))
        found.append(
            (
                f"Published novel cited: {ref}",
                game,
                position,
                dataclasses.replace(
                    option, cited=(*option.cited, str(ref)), gifts=tuple(sorted(owed.items()))
                ),
                Publish(move.novel, move.played, (*move.cited, ref), gifts),
                "R6",
            )
        )
    if move.gifts:
        dropped = rng.randrange(len(move.gifts))
        lost = move.gifts[dropped]
        owed = dict(option.gifts)
        owed[lost.to] -= 1
        fewer = tuple(sorted((p, n) for p, n in owed.items() if n))
        found.append(
            (
                f"gift missing: {lost}",
                game,
                position,
                dataclasses.replace(option, gifts=fewer),
                Publish(
                    move.novel,
                    move.played,
                    move.cited,
                    move.gifts[:dropped] + move.gifts[dropped + 1 :],
                ),
                "R5",
            )
        )
        wrong = rng.choice([p for p in range(game.players) if p != lost.to])
        owed[wrong] = owed.get(wrong, 0) + 1
        redirected = tuple(sorted((p, n) for p, n in owed.items() if n))
        gifts = (*move.gifts[:dropped], Gift(wrong, lost.card), *move.gifts[dropped + 1 :])
        found.append(
            (
                f"gift to the wrong player: {lost} to {wrong}",
                game,
                position,
                dataclasses.replace(option, gifts=redirected),
                Publish(move.novel, move.played, move.cited, gifts),
                "R5",
            )
        )
    # The same publish once the last copy of the Novel is gone (R6).
    gone = game.copy()
    gone._supply[option.novel] = 0
    found.append((f"no copy left: {option.novel}", gone, gone.position(), option, move, "R6"))
    # A Novel the player already holds (R6).
    held = sorted(position.held_novels)
    if held:
        novel = rng.choice(held)
        found.append(
            (
                f"Novel already held: {novel}",
                game,
                position,
                dataclasses.replace(option, novel=novel, points=game.catalogue[novel].points),
                Publish(novel, move.played, move.cited, move.gifts),
                "R6",
            )
        )
    return found


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_near_misses_are_rejected_by_both_sides(players: int, seed: int) -> None:
    rng = random.Random(seed)
    kinds: Counter[str] = Counter()
    for game in action_positions(players, seed):
        position = game.position()
        for option in sample(options(position), PERTURBED_CAP, rng):
            move = to_publish(option, position, LowestCardsPolicy())
            for what, where, pos, bad_option, bad_move, ruling in perturbations(
                game, position, option, move, rng
            ):
                reason = check_option(pos, bad_option)
                assert reason is not None, f"check_option accepted {what}: {bad_option}"
                assert f"({ruling})" in reason, f"{what}: {reason}"
                assert_illegal(where, bad_move, ruling)
                kinds[what.split(":")[0]] += 1
    assert {
        "extra card",
        "Published novel cited",
        "gift missing",
        "gift to the wrong player",
        "no copy left",
        "Novel already held",
    } == set(kinds), kinds


# ----------------------------------------------------------------------
# The game's card-level publishes and the solver's options are the same set
# ----------------------------------------------------------------------
def move_key(game: Game, move: Publish) -> OptionKey:
    """The R8 identity of a card-level publish: ranks played, (owner or -1, rank) cited."""
    player = game.to_move
    cited = []
    for ref in move.cited:
        novel = insides(game).novel(ref)
        assert novel is not None
        assert novel.masterpiece
        cited.append((-1 if ref.owner == player else ref.owner, novel.cards[0].rank))
    return (move.novel, tuple(sorted(card.rank for card in move.played)), tuple(sorted(cited)))


def keys_of(position: Position, found: list[PublishOption]) -> set[OptionKey]:
    """The R8 keys of some options (checked to be distinct)."""
    keys = {option_key(position, option) for option in found}
    assert len(keys) == len(found), "the solver listed an option twice (R8)"
    return keys


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_publish_moves_and_solver_options_have_the_same_keys(players: int, seed: int) -> None:
    compared = nonempty = 0
    for game in action_positions(players, seed):
        if len(game.legal_moves) > MAX_LEGAL:
            continue
        position = game.position()
        engine = {move_key(game, move) for move in publish_moves(game)}
        solver = keys_of(position, options(position))
        missing, extra = sorted(engine - solver), sorted(solver - engine)
        assert engine == solver, (
            f"{game}\nthe game allows but the solver misses: {missing[:5]}\n"
            f"the solver lists but the game forbids: {extra[:5]}"
        )
        compared += 1
        nonempty += bool(engine)
    assert compared >= 20
    assert nonempty >= 5


def test_sampled_positions_cover_instant_masterpieces_and_gifts() -> None:
    """The random positions exercise R5 and R7, so the checks above are not vacuous."""
    seen: Counter[str] = Counter()
    check: dict[str, Callable[[PublishOption], bool]] = {
        "instant": lambda o: o.instant_masterpiece,
        "gifts": lambda o: o.gift_count > 0,
        "several owners": lambda o: len(o.gifts) > 1,
        "own citation": lambda o: len(o.cited) > sum(n for _, n in o.gifts),
    }
    for players, seed in GAMES:
        for game in action_positions(players, seed):
            for option in options(game.position()):
                for name, test in check.items():
                    seen[name] += test(option)
    assert all(seen[name] > 0 for name in check), seen
