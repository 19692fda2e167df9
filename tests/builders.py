"""Test helpers: build a :class:`Game` in any scenario, check its invariants, play it.

``build_game`` assembles a :class:`Game` in the stated scenario (``game_internals.assemble``) with
the scenario described by the arguments; every card not mentioned goes under
the named top of the deck (or, with ``leftover=p``, into player ``p``'s hand),
so all 49 Story cards are always accounted for. Novels on the table are taken
out of the supply.

>>> game = build_game(3, hands={0: "SCI7 MYS7"}, tables={1: {"kind-3": "HOR7"}})
>>> game.hand(0), game.supply["kind-3"], all_cards_accounted(game)
((Card.parse('SCI7'), Card.parse('MYS7')), 4, True)
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping

import pytest

from pastiche_core import (
    DECK,
    Card,
    Catalogue,
    Choose,
    Draw,
    Game,
    Gift,
    IllegalMoveError,
    Keep,
    Move,
    NovelRef,
    Pass,
    Phase,
    Publish,
    Read,
    TakeDiscard,
    TakeFlag,
    parse_cards,
)
from pastiche_core.data.rng import GameRng
from pastiche_core.engine.game_internals import assemble, insides
from pastiche_core.engine.table import TableNovel

__all__ = [
    "MINI",
    "QUICK_MOVE_CAP",
    "CardsLike",
    "all_cards_accounted",
    "assert_illegal",
    "assert_invariants",
    "assert_rejected",
    "build_game",
    "card_census",
    "cards",
    "expected_score",
    "invariant_violations",
    "legal_prefix",
    "perturbations",
    "plausible_moves",
    "play_random",
    "position_pool",
    "random_game",
    "random_move",
    "random_positions",
    "simple_turn",
    "supply_consistent",
]

CardsLike = str | Iterable[Card]
"""Cards in notation (``"SCI7 MYS7"``) or as :class:`Card` objects."""

MOVE_CAP = 600
"""How many legal moves random play looks at (card-level publishes can be very many)."""

MAX_GAME_MOVES = 5000
"""A bound on the moves of any game, however it is played.

Deck plus discard pile lose a card with every Write and never gain one; each
publish takes a Novel from the supply (33 copies, at most 11 cards each) and
each Read takes back one published card; at most n - 1 passes come in a row.
So a game has at most 49 + 33 + 363 non-pass turns, about 2,250 turns in all
and fewer than 5,000 moves (R11, R12)."""


QUICK_MOVE_CAP = 200
"""Random play picks among the first legal moves only: a hand full of cards can
have tens of thousands of card-level publishes, and the tests must stay fast."""

MINI = Catalogue.from_dict(
    {
        "name": "mini",
        "novels": [
            {"id": "pair", "name": "A Pair", "kind": "kind", "count": 2, "points": 3, "copies": 6},
            {
                "id": "run-3",
                "name": "Run",
                "kind": "straight",
                "length": 3,
                "points": 2,
                "copies": 4,
            },
            {"id": "end-flag", "name": "End Flag", "kind": "end-flag", "points": 1, "copies": 1},
        ],
    }
)
"""A custom catalogue (R3) in which games end quickly."""


def random_game(players: int, seed: int, steps: int, catalogue: Catalogue | None = None) -> Game:
    """A game advanced by up to ``steps`` random legal moves (seeded)."""
    rng = random.Random(seed)
    game = Game(players, seed, catalogue)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(list(itertools.islice(game.legal_moves, QUICK_MOVE_CAP))))
    return game


def cards(spec: CardsLike) -> list[Card]:
    """Cards from notation or from an iterable of cards, in the given order."""
    return parse_cards(spec) if isinstance(spec, str) else list(spec)


def build_game(
    players: int = 4,
    *,
    hands: Mapping[int, CardsLike] | None = None,
    tables: Mapping[int, Mapping[str, CardsLike]] | None = None,
    deck: CardsLike | None = None,
    discard: CardsLike = "",
    face_down: CardsLike = "",
    pending: CardsLike | None = None,
    flag: tuple[int, CardsLike] | None = None,
    leftover: int | None = None,
    phase: Phase = Phase.ACTION,
    to_move: int = 0,
    current: int | None = None,
    turn: int = 1,
    passes: int = 0,
    trigger: int | None = None,
    turns_left: int | None = None,
    end_reason: str | None = None,
    seed: int = 0,
    catalogue: Catalogue | None = None,
) -> Game:
    """A game in the given scenario.

    * ``hands``: player -> cards in hand (players not named have empty hands);
    * ``tables``: player -> {novel id: cards under it}; one card is a Masterpiece;
    * ``deck``: the top of the deck, **top card first** (the next card drawn);
      cards mentioned nowhere go under it in canonical order, unless
      ``leftover`` names a player whose hand receives them instead (then the
      deck is exactly ``deck``);
    * ``discard``: the discard pile, bottom to top; ``face_down`` the cards of it
      lying face down;
    * ``pending``: the two cards drawn by Write ① (phase ``CHOOSE``);
    * ``flag``: ``(owner, card)`` of a taken End Flag.

    ``current`` (whose turn it is) defaults to ``to_move``. The End Flag leaves
    the supply when it is taken, or when ``trigger`` is set outside ``FLAG``
    (it was lost).
    """
    seen: Counter[Card] = Counter()

    def take(spec: CardsLike) -> list[Card]:
        got = cards(spec)
        seen.update(got)
        return got

    hand_sets: list[set[Card]] = [set() for _ in range(players)]
    for player, spec in (hands or {}).items():
        got = take(spec)
        if len(set(got)) != len(got):
            raise ValueError(f"duplicate card in hand {player}: {spec!r}")
        hand_sets[player] = set(got)
    table_dicts: list[dict[str, tuple[Card, ...]]] = [{} for _ in range(players)]
    for player, novels in (tables or {}).items():
        for novel, spec in novels.items():
            got = take(spec)
            if not got:
                raise ValueError(f"novel {player}:{novel} needs at least one card")
            table_dicts[player][novel] = tuple(got)
    top = take(deck) if deck is not None else []
    pile = take(discard)
    hidden = set(cards(face_down))
    if not hidden <= set(pile):
        raise ValueError("face-down cards must lie in the discard pile")
    drawn = take(pending) if pending is not None else []
    if (phase is Phase.CHOOSE) != bool(drawn) or len(drawn) not in (0, 2):
        raise ValueError("exactly two pending cards, and only in phase CHOOSE")
    flag_card: tuple[int, Card] | None = None
    if flag is not None:
        owner, flag_spec = flag
        (card,) = take(flag_spec)
        flag_card = (owner, card)
    repeated = [c for c, n in seen.items() if n > 1]
    if repeated:
        raise ValueError(f"cards mentioned twice: {' '.join(map(str, sorted(repeated)))}")
    rest = [c for c in DECK if c not in seen]
    if leftover is None:
        deck_list = rest[::-1] + top[::-1]  # the last card is the top of the deck
    else:
        deck_list = top[::-1]
        hand_sets[leftover].update(rest)

    cat = catalogue if catalogue is not None else Catalogue.default()
    supply = {spec.id: spec.copies for spec in cat.specs}
    for table in table_dicts:
        for novel in table:
            supply[novel] -= 1
            if supply[novel] < 0:
                raise ValueError(f"more copies of {novel} on the table than the catalogue has")
    if flag_card is not None or (trigger is not None and phase is not Phase.FLAG):
        supply[cat.end_flag.id] = 0
    game = assemble(
        Game,
        catalogue=cat,
        players=players,
        seed=seed,
        rng=GameRng(seed),
        deck=deck_list,
        discard=pile,
        face_down=hidden,
        hands=hand_sets,
        tables=table_dicts,
        supply=supply,
        flag=flag_card,
        phase=phase,
        to_move=to_move,
        current=to_move if current is None else current,
        pending=(drawn[0], drawn[1]) if drawn else None,
        turn=turn,
        passes=passes,
        trigger=trigger,
        turns_left=turns_left,
        end_reason=end_reason,
    )
    problems = invariant_violations(game)
    if problems:
        raise ValueError(f"inconsistent scenario: {'; '.join(problems)}")
    return game


# ----------------------------------------------------------------------
# Invariants
# ----------------------------------------------------------------------
def masterpieces(game: Game) -> list[TableNovel]:
    """Every Masterpiece on the table, by owner and publish order."""
    return [novel for table in game.tables() for novel in table if novel.masterpiece]


def card_census(game: Game) -> Counter[Card]:
    """How many times each card occurs in the deck, discard, hands, tables, flag and pending."""
    census: Counter[Card] = Counter(insides(game).deck)
    census.update(game.discard)
    for player in range(game.players):
        census.update(game.hand(player))
        for novel in game.table(player):
            census.update(novel.cards)
    if game._flag is not None:
        census[game._flag[1]] += 1
    if insides(game).pending is not None:
        census.update(insides(game).pending)
    return census


def all_cards_accounted(game: Game) -> bool:
    """Whether each of the 49 Story cards lies in exactly one place."""
    census = card_census(game)
    return len(census) == len(DECK) and all(census[c] == 1 for c in DECK)


def supply_consistent(game: Game) -> bool:
    """Supply plus copies on the table (and the taken or lost End Flag) equal the catalogue's."""
    cat = game.catalogue
    on_table: Counter[str] = Counter(
        novel.novel for p in range(game.players) for novel in game.table(p)
    )
    for spec in cat.specs:
        if spec.publishable:
            if game.supply[spec.id] + on_table[spec.id] != spec.copies:
                return False
        else:
            gone = insides(game).flag is not None or insides(game).flag_lost
            if on_table[spec.id] or game.supply[spec.id] != (0 if gone else 1):
                return False
    return True


def expected_score(game: Game, player: int) -> int:
    """Masterpiece points plus the End Flag, computed from the table (R13)."""
    cat = game.catalogue
    points = sum(cat[n.novel].points for n in game.table(player) if len(n.cards) == 1)
    if game._flag is not None and game._flag[0] == player:
        points += cat.end_flag.points
    return points


def invariant_violations(game: Game) -> list[str]:
    """Every broken invariant of ``game``, in words (empty when all hold)."""
    problems: list[str] = []
    if not all_cards_accounted(game):
        census = card_census(game)
        wrong = [f"{c}x{census[c]}" for c in DECK if census[c] != 1]
        problems.append(f"cards not accounted for exactly once: {' '.join(wrong)}")
    if not supply_consistent(game):
        problems.append(f"supply inconsistent: {game.supply}")
    for p in range(game.players):
        if game.scores()[p] != expected_score(game, p):
            problems.append(
                f"score of {p} is {game.scores()[p]}, expected {expected_score(game, p)}"
            )
        held = [n.novel for n in game.table(p)]
        if len(held) != len(set(held)):
            problems.append(f"player {p} holds a Novel twice")
    face_down = [c for c in game.discard if insides(game).is_face_down(c)]
    if len(face_down) != len(insides(game).face_down):
        problems.append("a face-down card is not in the discard pile")
    phase = game.phase
    if (phase is Phase.CHOOSE) != (insides(game).pending is not None):
        problems.append(f"pending cards {insides(game).pending} in phase {phase}")
    if not 0 <= game.to_move < game.players or not 0 <= insides(game).current < game.players:
        problems.append("to_move or current out of range")
    if phase in (Phase.ACTION, Phase.CHOOSE) and game.to_move != insides(game).current:
        problems.append("the player to move is not the current player")
    if phase is Phase.KEEP and not 2 <= game.to_move < game.players:
        problems.append("keep phase for a seat below 2")
    if phase is Phase.FLAG and (game._trigger != game.to_move or game._flag is not None):
        problems.append("flag phase without its trigger player")
    if (game._trigger is None) != (game._turns_left is None):
        problems.append("trigger and countdown disagree")
    if game._flag is not None and game._flag[0] != game._trigger:
        problems.append("the End Flag is not held by the trigger player")
    if (phase is Phase.OVER) != (insides(game).end_reason is not None):
        problems.append(f"end reason {insides(game).end_reason!r} in phase {phase}")
    if insides(game).end_reason not in (None, "countdown", "all-pass"):
        problems.append(f"unknown end reason {insides(game).end_reason!r}")
    if not 0 <= insides(game).passes <= game.players:
        problems.append(f"passes {insides(game).passes} out of range")
    return problems


def assert_invariants(game: Game) -> None:
    """Fail with every broken invariant listed."""
    problems = invariant_violations(game)
    assert not problems, "\n".join(problems)


def assert_rejected(game: Game, move: Move | str) -> str:
    """``apply(move)`` raises IllegalMoveError and leaves the game and its history unchanged."""
    before = game.copy()
    history = game.history
    with pytest.raises(IllegalMoveError) as info:
        game.apply(move)
    assert isinstance(info.value, ValueError)
    assert game == before
    assert game.history == history
    return str(info.value)


def assert_illegal(game: Game, move: Move | str, ruling: str | tuple[str, ...]) -> str:
    """``move`` raises IllegalMoveError (a ValueError) naming ``ruling``; state unchanged.

    ``ruling`` is e.g. ``"R5"`` (or several acceptable ones); returns the message.
    """
    before = game.copy()
    history = game.history
    assert not game.is_legal(move)
    with pytest.raises(IllegalMoveError) as info:
        game.apply(move)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    rulings = (ruling,) if isinstance(ruling, str) else ruling
    assert any(f"({r})" in message for r in rulings), message
    assert game == before
    assert game.history == history
    return message


# ----------------------------------------------------------------------
# Playing
# ----------------------------------------------------------------------
def simple_turn(game: Game) -> None:
    """Play one quiet turn: Write ① keeping the first drawn card, else Write ②, else pass."""
    if game.deck_size >= 2 or (game.deck_size == 1 and game.discard):
        game.apply(Draw())
        assert game._pending is not None
        game.apply(Choose(game._pending[0]))
    elif insides(game).can_write():
        game.apply("take" if game.discard else "draw")
    else:
        game.apply("pass")


def legal_prefix(game: Game, cap: int = MOVE_CAP) -> list[Move]:
    """The first ``cap`` legal moves in enumeration order."""
    return list(itertools.islice(game.legal_moves, cap))


def random_move(game: Game, rng: random.Random, cap: int = MOVE_CAP) -> Move:
    """A random legal move: first a random kind of move, then one of that kind.

    When the enumeration is longer than ``cap``, a publish is drawn by index
    from all of them, not only from the first ones.
    """
    moves = legal_prefix(game, cap + 1)
    kinds: dict[type[Move], list[Move]] = {}
    for move in moves[:cap]:
        kinds.setdefault(type(move), []).append(move)
    kind = rng.choice(sorted(kinds, key=lambda k: k.__name__))
    legal = game.legal_moves
    if kind is Publish and len(moves) > cap:
        count = len(legal)
        for _ in range(100):
            move = legal[rng.randrange(count)]
            if isinstance(move, Publish):
                return move
    return rng.choice(kinds[kind])


def play_random(game: Game, rng: random.Random, max_moves: int = MAX_GAME_MOVES) -> int:
    """Play random legal moves until the game is over or ``max_moves``; the moves played."""
    played = 0
    while not game.is_over and played < max_moves:
        game.apply(random_move(game, rng))
        played += 1
    return played


def random_positions(players: int, seed: int, every: int = 1) -> list[Game]:
    """Copies of every ``every``-th position of one random game, from deal to end."""
    game = Game(players, seed)
    rng = random.Random(seed)
    positions: list[Game] = []
    count = 0
    while True:
        if count % every == 0 or game.is_over:
            positions.append(game.copy())
        if game.is_over or count >= MAX_GAME_MOVES:
            return positions
        game.apply(random_move(game, rng))
        count += 1


def perturbations(game: Game, move: Publish, rng: random.Random) -> list[Move]:
    """Near misses of a publish: an extra card, a card missing, a Published novel cited,
    a gift missing, a gift to the wrong player or of a played card, another Novel."""
    player = game.to_move
    hand = sorted(set(game.hand(player)))
    spare = [c for c in hand if c not in move.played and c not in {g.card for g in move.gifts}]
    out: list[Move] = []
    if spare:
        out.append(Publish(move.novel, (*move.played, rng.choice(spare)), move.cited, move.gifts))
    outside = [c for c in DECK if c not in hand]
    out.append(Publish(move.novel, (*move.played, rng.choice(outside)), move.cited, move.gifts))
    if move.played:
        dropped = rng.randrange(len(move.played))
        out.append(
            Publish(
                move.novel,
                move.played[:dropped] + move.played[dropped + 1 :],
                move.cited,
                move.gifts,
            )
        )
    published = [n.ref for p in range(game.players) for n in game.table(p) if len(n.cards) >= 2]
    if published:
        ref = rng.choice(published)
        gifts = move.gifts
        if ref.owner != player and spare:
            gifts = (*gifts, Gift(ref.owner, rng.choice(spare)))
        out.append(Publish(move.novel, move.played, (*move.cited, ref), gifts))
    flag_ref = NovelRef(game._flag[0], game.catalogue.end_flag.id) if game._flag else None
    if flag_ref is not None:
        out.append(Publish(move.novel, move.played, (*move.cited, flag_ref), move.gifts))
    if move.gifts:
        missing = rng.randrange(len(move.gifts))
        out.append(
            Publish(
                move.novel,
                move.played,
                move.cited,
                move.gifts[:missing] + move.gifts[missing + 1 :],
            )
        )
        wrong = rng.choice([p for p in range(game.players + 1) if p != move.gifts[missing].to])
        redirected = (*move.gifts[:missing], Gift(wrong, move.gifts[missing].card))
        out.append(
            Publish(move.novel, move.played, move.cited, redirected + move.gifts[missing + 1 :])
        )
        if move.played:
            played_gift = (*move.gifts[:missing], Gift(move.gifts[missing].to, move.played[0]))
            out.append(
                Publish(
                    move.novel, move.played, move.cited, played_gift + move.gifts[missing + 1 :]
                )
            )
    mine = [
        NovelRef(player, n.novel)
        for n in game.table(player)
        if len(n.cards) == 1 and NovelRef(player, n.novel) not in move.cited
    ]
    others = [
        n.ref
        for p in range(game.players)
        if p != player
        for n in game.table(p)
        if len(n.cards) == 1 and n.ref not in move.cited
    ]
    if mine:
        out.append(Publish(move.novel, move.played, (*move.cited, rng.choice(mine)), move.gifts))
    if others and spare:
        ref = rng.choice(others)
        out.append(
            Publish(
                move.novel,
                move.played,
                (*move.cited, ref),
                (*move.gifts, Gift(ref.owner, rng.choice(spare))),
            )
        )
    other_novel = rng.choice([spec.id for spec in game.catalogue.specs])
    out.append(Publish(other_novel, move.played, move.cited, move.gifts))
    return out


def plausible_moves(game: Game, rng: random.Random, sample: int = 3) -> list[Move]:
    """A pool of moves that look possible now: legal ones, near misses and moves of other phases."""
    player = game.to_move
    hand = list(game.hand(player))
    some = [rng.choice(DECK) for _ in range(sample)]
    pool: list[Move] = [Draw(), TakeDiscard(), Pass()]
    pool += [Choose(c) for c in some] + [TakeFlag(c) for c in some]
    pool += [TakeFlag(c) for c in hand[:sample]]
    if game._pending is not None:
        pool += [Choose(c) for c in game._pending]
    pool.append(Keep(tuple(rng.sample(hand, min(3, len(hand))))))
    pool.append(Keep(tuple(rng.sample(DECK, 3))))
    if len(hand) >= 3:
        pool.append(Keep(tuple(rng.sample(hand, 3))))
    refs = [n for p in range(game.players) for n in game.table(p)]
    for novel in rng.sample(refs, min(sample, len(refs))):
        pool.append(Read(novel.ref, rng.choice(novel.cards)))
        pool.append(Read(novel.ref, rng.choice(DECK)))
    pool.append(
        Read(
            NovelRef(rng.randrange(game.players), rng.choice(list(game.catalogue))),
            rng.choice(DECK),
        )
    )
    if game._flag is not None:
        pool.append(Read(NovelRef(game._flag[0], game.catalogue.end_flag.id), game._flag[1]))
    legal = legal_prefix(game, 200)
    publishes = [m for m in legal if isinstance(m, Publish)]
    for move in rng.sample(publishes, min(sample, len(publishes))):
        pool.append(move)
        pool += perturbations(game, move, rng)
    if hand:
        played = tuple(rng.sample(hand, rng.randint(1, min(5, len(hand)))))
        pool.append(Publish(rng.choice(list(game.catalogue)), played))
    pool += rng.sample(legal, min(sample, len(legal)))
    return pool


@functools.cache
def position_pool() -> tuple[Game, ...]:
    """Every position of nine random games, three each for 3, 4 and 5 players.

    Treat the positions as read-only: copy one before changing it.
    """
    pool: list[Game] = []
    for players in (3, 4, 5):
        for seed in range(3):
            pool += random_positions(players, 100 * players + seed)
    return tuple(pool)


def as_publish(move: Move) -> Publish:
    """``move`` as a :class:`Publish` (fails otherwise)."""
    assert isinstance(move, Publish), move
    return move
