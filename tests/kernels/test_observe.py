"""The observation kernel ``fill_public`` (``csrc/observe.c``) against its Python rule.

The inputs are aimed at the kernel's corners: packed inputs drawn over its whole
domain (any placement of the fields, 1 to 8 players, up to 64 Novel slots, every
place code, counts at the edge of what a float32 holds), the views of random
games (3 to 5 players, every phase, the countdown, the End Flag lost,
reshuffles, known hands) and views built at the corners (an empty hand, a full
discard pile, every card on the table, the drawn cards while choosing, the End
Flag held, lost or being chosen, one Novel under several owners). Every
comparison is bit for bit over the whole buffer, which starts full of garbage,
so a value left unwritten or written twice shows. Malformed input raises the
same exception from both twins and leaves the buffer as it was; an input beyond
the kernel's ranges is refused (``OutOfRange``) and the gate answers in Python.

The C home of a ruling compared here (its tag names this file): ``pk_fill_public``,
the core of ``fill_public`` (R16: no other seat's hidden card is shown).
"""

from __future__ import annotations

import random
from array import array
from typing import Any

import pytest

pytest.importorskip("numpy")

import numpy as np
from builders import build_game
from hypothesis import given
from hypothesis import strategies as st
from support import twin

from pastiche_core import DECK, Card, Catalogue, Game, Phase
from pastiche_core.engine import _kernels, layout
from pastiche_core.engine.game_internals import insides
from pastiche_core.engine.rules import setup_discarders
from pastiche_core.rl import Knowledge, ObservationEncoder, observation

pytestmark = pytest.mark.kernels

KERNEL = observation._fill_public
FIELDS = observation._PUBLIC_FIELDS
MAX_INT = 1 << 24
"""The largest count the kernel takes (a float32 holds every integer up to it)."""
PHASES = [Phase.KEEP, Phase.ACTION, Phase.CHOOSE, Phase.FLAG, Phase.OVER]
FLAG_PHASE, OVER_PHASE = PHASES.index(Phase.FLAG), PHASES.index(Phase.OVER)

Args = tuple[Any, ...]
"""fill_public's arguments but ``out``: fields, table, slots, known, supply, hand_sizes,
scores, state."""


def shapes(n: int, k: int) -> dict[str, int]:
    """The size of each field fill_public writes, for ``n`` players and ``k`` Novel slots."""
    cards = layout.CARDS
    sizes = dict.fromkeys(FIELDS, n)
    sizes.update(dict.fromkeys(FIELDS[:6], cards))
    sizes.update(published=n * cards, masterpieces=n * cards, known_hands=n * cards)
    sizes.update(novel_cards=k * cards, held_published=n * k, held_masterpiece=n * k)
    sizes.update(supply=k, piles=3, phase=5, passes=1, countdown=2, flag_lost=1)
    return sizes


def pack(offsets: dict[str, int], sizes: dict[str, int]) -> bytes:
    """fill_public's ``fields`` from each field's offset and size."""
    return array("i", [v for name in FIELDS for v in (offsets[name], sizes[name])]).tobytes()


def garbage(length: int, seed: int) -> np.ndarray:
    """A float32 buffer full of values no field holds (NaNs of several payloads, huge values)."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 1 << 32, length, dtype=np.uint64).astype(np.uint32).view(np.float32)


def run_both(args: Args, length: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The compiled twin's and the Python rule's buffers for ``args``, from the same garbage."""
    compiled, python = garbage(length, seed), garbage(length, seed)
    twin(KERNEL)(compiled, *args)
    KERNEL.python(python, *args)
    return compiled, python


def same(compiled: np.ndarray, python: np.ndarray) -> bool:
    """Whether two buffers hold the same bits."""
    return bool(np.array_equal(compiled.view(np.uint32), python.view(np.uint32)))


def agree(args: Args, length: int, seed: int = 0) -> np.ndarray:
    """The buffer both twins write for ``args``, checked bit for bit."""
    compiled, python = run_both(args, length, seed)
    differ = np.flatnonzero(compiled.view(np.uint32) != python.view(np.uint32))
    assert not differ.size, f"compiled and Python differ at {differ[:10].tolist()}"
    return python


# ----------------------------------------------------------------------
# Packed inputs over the kernel's whole domain
# ----------------------------------------------------------------------
@st.composite
def packed(draw: st.DrawFn) -> tuple[Args, int, dict[str, int]]:
    """Valid inputs of fill_public: any placement of the fields, any valid place codes."""
    n = draw(st.integers(1, layout.SEAT_MASK + 1))
    k = draw(st.integers(0, 64))
    me = draw(st.integers(0, n - 1))
    sizes = shapes(n, k)
    order = draw(st.permutations(FIELDS))
    offsets: dict[str, int] = {}
    at = draw(st.integers(0, 3))
    for name in order:
        offsets[name] = at
        at += sizes[name] + draw(st.sampled_from([0, 0, 1, 5]))
    length = at + draw(st.integers(0, 3))
    # A Novel position of the table per slot (some positions without one), 0xFF the End Flag.
    positions = draw(st.integers(max(k, 1), 255))
    slot_map = [0xFF] * positions
    for slot, position in enumerate(
        draw(st.lists(st.integers(0, positions - 1), min_size=k, max_size=k, unique=True))
    ):
        slot_map[position] = slot
    with_slot = [p for p, slot in enumerate(slot_map) if slot != 0xFF]
    codes = [layout.UNSEEN, layout.PILE_UP, layout.DRAWN]
    codes += [layout.HAND | me, layout.PILE_DOWN | me]
    codes += [place | s for s in range(n) for place in (layout.FLAG,)]
    if with_slot:
        codes += [place | s for s in range(n) for place in (layout.MASTER, layout.PUBLISHED)]
    weights = draw(st.lists(st.integers(0, 3), min_size=len(codes), max_size=len(codes)))
    chosen = [c for c, w in zip(codes, weights, strict=True) for _ in range(w)] or [layout.UNSEEN]
    table = bytearray(layout.CARD_TABLE_SIZE)
    rng = random.Random(draw(st.integers(0, 2**32)))
    for card in range(layout.CARDS):
        code = rng.choice(chosen)
        table[card] = code
        if code & layout.PLACE_MASK in (layout.MASTER, layout.PUBLISHED) and code >= 0x08:
            table[layout.CARDS + card] = rng.choice(with_slot)
        else:  # read by nobody: any byte
            table[layout.CARDS + card] = rng.randrange(256)
    known = bytearray(layout.CARDS)
    for card in draw(st.lists(st.integers(0, layout.CARDS - 1), max_size=12)):
        known[card] = layout.HAND | rng.randrange(n)
    count = st.one_of(
        st.integers(-3, 60), st.sampled_from([MAX_INT, -MAX_INT, MAX_INT - 1, 1 << 23])
    )
    supply = draw(st.lists(count, min_size=k, max_size=k))
    hand_sizes = draw(st.lists(count, min_size=n, max_size=n))
    scores = draw(st.lists(count, min_size=n, max_size=n))
    face_up = [card for card in range(layout.CARDS) if table[card] == layout.PILE_UP]
    top = draw(st.sampled_from([-1, -1, -7, *face_up[:3]]))
    state = (
        me,
        draw(st.integers(0, 4)),
        draw(st.integers(0, n - 1)),
        draw(st.integers(0, n - 1)),
        draw(count),
        draw(count),
        draw(count),
        top,
        draw(count),
        draw(st.sampled_from([-1, -2, *range(n)])),
        draw(st.sampled_from([-1, -3, 0, 1, 2 * n - 1, MAX_INT])),
    )
    args = (
        pack(offsets, sizes),
        bytes(table),
        bytes(slot_map),
        bytes(known),
        supply,
        tuple(hand_sizes),
        tuple(scores),
        state,
    )
    return args, length, offsets


@given(packed(), st.integers(0, 2**16))
def test_any_valid_packed_input_is_written_alike(
    drawn: tuple[Args, int, dict[str, int]], seed: int
) -> None:
    args, length, offsets = drawn
    out = agree(args, length, seed)
    # The fields hold what their inputs say: the counts as given, the seats turned.
    _, table, _, _, supply, hand_sizes, _, state = args
    me, phase = state[0], state[1]
    n, k = len(hand_sizes), len(supply)
    assert out[offsets["supply"] : offsets["supply"] + k].tolist() == [float(c) for c in supply]
    assert out[offsets["hand_sizes"] + (n - me) % n] == hand_sizes[0]
    assert out[offsets["seat"] + me] == 1.0
    assert out[offsets["phase"] + phase] == 1.0
    lost = (
        state[9] >= 0 and phase != FLAG_PHASE and layout.FLAG not in {c & 0xF8 for c in table[:49]}
    )
    assert out[offsets["flag_lost"]] == float(lost)
    # Variations of one input, a scalar of the state at a time (the observer's seat: below).
    for name, values in [
        ("phase", range(5)),
        ("to_move", [0, n - 1]),
        ("current", [0, n - 1]),
        ("deck", [0, MAX_INT, -MAX_INT]),
        ("discard", [7]),
        ("face_down", [3]),
        ("top", [-1]),
        ("passes", [0, 1]),
        ("trigger", [-1, 0, n - 1]),
        ("turns_left", [-1, 0, 5]),
    ]:
        for value in values:
            agree(with_state(args, **{name: value}), length, seed)


@given(packed())
def test_the_seats_turn_with_the_observer(drawn: tuple[Args, int, dict[str, int]]) -> None:
    """The same table seen from each seat: every seat's planes move to its relative place."""
    args, length, _ = drawn
    state = args[7]
    n = len(args[5])
    table = bytearray(args[1])
    for card in range(layout.CARDS):  # hands and face-down cards belong to one observer
        if table[card] & layout.PLACE_MASK in (layout.HAND, layout.PILE_DOWN) and table[card] > 2:
            table[card] = layout.UNSEEN
    for me in range(n):
        top = state[7] if state[7] < 0 or table[state[7]] == layout.PILE_UP else -1
        changed = (me, *state[1:7], top, *state[8:])
        agree((args[0], bytes(table), *args[2:7], changed), length)


# ----------------------------------------------------------------------
# Views of random games
# ----------------------------------------------------------------------
def check_view(encoder: ObservationEncoder, view: Any, knowledge: Knowledge | None) -> np.ndarray:
    """The twins agree on the packed inputs of ``view`` (and ``knowledge``)."""
    return agree(encoder._inputs(view, knowledge), encoder.size, view.player)


@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([3, 4, 5]),
    every=st.integers(1, 9),
)
def test_views_along_random_games_are_written_alike(seed: int, players: int, every: int) -> None:
    """Whole games, every seat's view every few moves: all phases, countdowns, reshuffles."""
    game = Game(players=players, seed=seed)
    encoder = ObservationEncoder(players)
    knowledge = [Knowledge.of(game, seat) for seat in range(players)]
    rng = random.Random(seed)
    seen_phases: set[Phase] = set()
    moves = 0
    while True:
        if moves % every == 0 or game.is_over:
            for seat in range(players):
                check_view(encoder, game.view(seat, history=False), knowledge[seat])
            check_view(encoder, game.view(game.to_move, history=False), None)
            seen_phases.add(game.phase)
        if game.is_over:
            break
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
        Knowledge.update_all(knowledge, game)
        moves += 1
    assert Phase.OVER in seen_phases


# ----------------------------------------------------------------------
# Views at the corners
# ----------------------------------------------------------------------
def corner_games() -> list[tuple[str, Game]]:
    """Positions at the corners of the observation (each checked from every seat)."""
    rest = [card for card in DECK]
    games: list[tuple[str, Game]] = []
    games.append(("empty hands", build_game(3, discard="SCI7 HOR7")))
    # A full discard pile: every card but a few, the setup's face-down block at the bottom.
    pile = [card for card in rest if card.index % 9 != 0]
    block = pile[: len(setup_discarders(5))]
    games.append(
        (
            "full discard pile",
            build_game(5, hands={2: "MYT1"}, discard=pile, face_down=block, seed=1),
        )
    )
    games.append(
        (
            "face-down top",
            build_game(4, discard=pile[:2], face_down=pile[:2], hands={0: "MYT1"}),
        )
    )
    # Every card on the table, the End Flag's card too: five owners, one Novel under many.
    catalogue = Catalogue.default()
    novels = [spec.id for spec in catalogue.publishable]
    tables: dict[int, dict[str, list[Card]]] = {seat: {} for seat in range(5)}
    cards = list(DECK)
    flag_card = cards.pop()
    copies = {spec.id: spec.copies for spec in catalogue.publishable}
    seat = 0
    while cards:
        for novel in novels:
            if not cards:
                break
            if novel in tables[seat] or copies[novel] == 0:
                continue
            copies[novel] -= 1
            take = 1 if seat % 2 else min(len(cards), 3)
            tables[seat][novel] = [cards.pop() for _ in range(take)]
        seat = (seat + 1) % 5
    games.append(
        (
            "every card on the table",
            build_game(5, tables=tables, flag=(3, [flag_card]), trigger=3, turns_left=4),
        )
    )
    # The drawn cards while choosing (seen by the chooser only).
    games.append(
        (
            "choosing",
            build_game(4, hands={1: "SCI9"}, pending="MYT1 HOR7", phase=Phase.CHOOSE, to_move=1),
        )
    )
    games.append(
        (
            "flag held",
            build_game(
                3, tables={2: {"kind-3": "MYS7"}}, flag=(2, "LOV4"), trigger=2, turns_left=0
            ),
        )
    )
    games.append(
        ("flag lost", build_game(4, hands={0: "SCI7"}, trigger=1, turns_left=3, to_move=2))
    )
    games.append(
        (
            "flag phase",
            build_game(4, phase=Phase.FLAG, to_move=2, current=2, trigger=2, turns_left=7),
        )
    )
    games.append(
        (
            "own and others' masterpieces of one Novel",
            build_game(
                4,
                hands={0: "SCI7 HOR7"},
                tables={0: {"kind-3": "MYS7"}, 1: {"kind-3": "FAN7"}, 3: {"kind-3": "LOV7 MAG7"}},
                passes=3,
            ),
        )
    )
    games.append(
        (
            "over",
            build_game(3, phase=Phase.OVER, end_reason="all-pass", passes=3, trigger=None),
        )
    )
    return games


@pytest.mark.parametrize(("name", "game"), corner_games(), ids=lambda value: str(value)[:30])
def test_views_at_the_corners_are_written_alike(name: str, game: Game) -> None:
    encoder = ObservationEncoder(game.players, game.catalogue)
    planes = encoder.unpack
    for seat in range(game.players):
        view = game.view(seat)
        known = Knowledge(
            seat,
            set(),
            {
                card.index: other
                for other in range(game.players)
                if other != seat
                for card in game.hand(other)[:2]
            },
        )
        out = check_view(encoder, view, known)
        check_view(encoder, view, None)
        parts = planes(out)
        # The corner is there: each plane holds what the view shows.
        assert parts["hand"].sum() == len(view.hand)
        assert parts["drawn"].sum() == (2 if view.pending else 0)
        assert parts["discard_face_up"].sum() + parts["discard_own"].sum() == sum(
            card is not None for card in view.discard
        )
        assert parts["novel_cards"].sum() == sum(len(n.cards) for t in view.tables for n in t)
        assert parts["flag_card"].sum() == (view.flag is not None)
        assert parts["known_hands"].sum() == len(known.holders)
        lost = view.trigger is not None and view.flag is None and view.phase is not Phase.FLAG
        assert parts["flag_lost"][0] == lost


def test_the_corners_are_reached() -> None:
    """The corner positions are what their names say (so the test above checks them)."""
    games = dict(corner_games())
    table = insides(games["every card on the table"]).card_table
    assert all(
        code & layout.PLACE_MASK in (layout.MASTER, layout.PUBLISHED, layout.FLAG)
        for code in table[: layout.CARDS]
    )
    assert len(games["full discard pile"].discard) > 40
    assert games["choosing"].view(1).pending is not None
    assert games["choosing"].view(0).pending is None


# ----------------------------------------------------------------------
# Refusals and errors
# ----------------------------------------------------------------------
def base_inputs(players: int = 4) -> tuple[ObservationEncoder, Args]:
    """An encoder and the packed inputs of a midgame view with a face-up top and known cards."""
    game = Game(players=players, seed=5)
    knowledge = Knowledge.of(game, 1)
    rng = random.Random(5)
    while True:
        game.apply(game.legal_moves[rng.randrange(len(game.legal_moves))])
        knowledge.update(game)
        view = game.view(1)
        inputs = ObservationEncoder(players)._inputs(view, knowledge)
        if (
            inputs[7][7] >= 0
            and any(inputs[3])
            and any(c & 0xF8 == layout.PUBLISHED for c in inputs[1][:49])
        ):
            return ObservationEncoder(players), inputs


def with_state(args: Args, **changes: int) -> Args:
    """``args`` with some entries of ``state`` changed, by name."""
    state = list(args[7])
    for name, value in changes.items():
        state[observation._STATE.index(name)] = value
    return (*args[:7], tuple(state))


def replaced(args: Args, position: int, value: object) -> Args:
    """``args`` with argument ``position`` (after ``out``) replaced."""
    return (*args[:position], value, *args[position + 1 :])


def table_with(args: Args, card: int, code: int, novel: int | None = None) -> Args:
    """``args`` with one card of the table moved to ``code`` (and under Novel position ``novel``)."""
    table = bytearray(args[1])
    table[card] = code
    if novel is not None:
        table[layout.CARDS + card] = novel
    return replaced(args, 1, bytes(table))


def fields_with(args: Args, name: str, offset: int | None = None, size: int | None = None) -> Args:
    """``args`` with one field moved or resized."""
    pairs = array("i", args[0])
    index = FIELDS.index(name)
    if offset is not None:
        pairs[2 * index] = offset
    if size is not None:
        pairs[2 * index + 1] = size
    return replaced(args, 0, pairs.tobytes())


def both_raise(error: type[BaseException], args: Args, out: Any = None) -> None:
    """Both twins raise ``error`` for ``args`` and leave ``out`` (a garbage buffer) as it was."""
    for run in (twin(KERNEL), KERNEL.python):
        target = garbage(2000, 1) if out is None else out
        before = target.tobytes() if isinstance(target, np.ndarray) else None
        with pytest.raises(error) as raised:
            run(target, *args)
        assert raised.value.__context__ is None, run  # nothing else left pending
        if before is not None:
            assert target.tobytes() == before, run


def test_malformed_buffers_are_errors() -> None:
    encoder, args = base_inputs()
    agree(args, encoder.size)
    size = encoder.size
    for out in [
        np.zeros(size, dtype=np.float64),
        np.zeros(size, dtype=np.float32)[::2],
        bytes(4 * size),
        bytearray(4 * size),
        [0.0] * size,
        np.zeros(size, dtype=np.int32),
    ]:
        both_raise(TypeError, args, out)
    readonly = np.zeros(size, dtype=np.float32)
    readonly.flags.writeable = False
    both_raise(TypeError, args, readonly)
    # Other buffer shapes of float32 are taken as flat: a 2-D array, a memoryview.
    square = garbage(size + 3, 2).reshape(1, -1)
    twin(KERNEL)(square, *args)
    flat = garbage(size + 3, 2)
    KERNEL.python(flat.data, *args)
    assert same(square.reshape(-1), flat)
    for position, value in [
        (0, args[0][:-4]),  # fields of 24 pairs
        (0, args[0] + bytes(4)),
        (0, list(args[0])),
        (1, args[1][:-1]),  # a card table of 97 bytes
        (1, args[1] + b"\0"),
        (1, list(args[1])),
        (2, 12),  # slots not bytes-like
        (3, args[3][:-1]),  # known of 48 bytes
        (3, list(args[3])),
        (4, list(args[4])[:-1]),  # supply of k - 1 counts
        (4, [*args[4], 0]),
        (4, 7),
        (5, args[5][:-1]),  # hand sizes of n - 1 seats
        (6, (*args[6], 0)),  # scores of n + 1 seats
        (7, args[7][:-1]),  # state of 10 integers
        (7, (*args[7], 0)),
        (7, (*args[7][:4], 39.0, *args[7][5:])),  # an integer that is a float
        (5, ("3", *args[5][1:])),
        (7, (*args[7][:-1], 1.5)),  # the last integer of each sequence, not one
        (4, (*args[4][:-1], "3")),
        (5, (*args[5][:-1], None)),
        (6, (*args[6][:-1], 2.0)),
    ]:
        both_raise(TypeError, replaced(args, position, value))
    # Every buffer is let go after an error as after an answer: each one can be resized then.
    wrong = table_with(args, 0, 0x03)
    for call, error in [
        (args, None),
        (replaced(args, 0, args[0][:-4]), TypeError),
        (replaced(args, 1, args[1][:-1]), TypeError),
        (replaced(args, 2, 12), TypeError),
        (replaced(args, 3, args[3][:-1]), TypeError),
        (replaced(args, 4, [0]), TypeError),
        (replaced(args, 0, bytes(200)), ValueError),
        (wrong, ValueError),
    ]:
        lent = [bytearray(v) if isinstance(v, bytes | bytearray) else v for v in call[:4]]
        out = array("f", bytes(4 * size))
        if error is None:
            twin(KERNEL)(out, *lent, *call[4:])
        else:
            with pytest.raises(error):
                twin(KERNEL)(out, *lent, *call[4:])
        out.append(0.0)
        for value in lent:
            if isinstance(value, bytearray):
                value.append(0)
    with pytest.raises(TypeError):
        twin(KERNEL)(array("d", bytes(8 * size)), *args)
    # Nothing beyond a buffer's end is read: a slice of a longer buffer reads as its bytes.
    tails = [
        array("i", [0, 49, 49, 49]).tobytes(),
        bytes([layout.HAND | args[7][0]] * 3),
        bytes(range(3)),
        bytes([layout.HAND] * 3),
    ]
    sliced = [
        memoryview(bytes(value) + tail)[: len(value)]
        for value, tail in zip(args[:4], tails, strict=True)
    ]
    assert same(agree((*sliced, *args[4:]), size), agree(args, size))
    # Bytes-like inputs of any kind are read alike.
    converted = (bytearray(args[0]), memoryview(args[1]), bytearray(args[2]), memoryview(args[3]))
    assert same(agree((*converted, *args[4:]), size), agree(args, size))


def test_values_beyond_their_fields_are_errors() -> None:
    encoder, args = base_inputs()
    n, k, size = 4, len(encoder.novels), encoder.size
    me = args[7][0]
    face_up = [c for c in range(layout.CARDS) if args[1][c] == layout.PILE_UP]
    not_up = next(c for c in range(layout.CARDS) if args[1][c] != layout.PILE_UP)
    hidden = next(c for c in range(layout.CARDS) if args[1][c] == layout.UNSEEN)
    novel = next(c for c in range(layout.CARDS) if args[1][c] & 0xF8 == layout.PUBLISHED)
    novel_at = args[1][layout.CARDS + novel]
    cases: list[Args] = [
        with_state(args, seat=n),
        with_state(args, seat=-1),
        with_state(args, phase=5),
        with_state(args, phase=-1),
        with_state(args, to_move=n),
        with_state(args, to_move=-1),
        with_state(args, current=n),
        with_state(args, current=-1),
        with_state(args, trigger=n),
        with_state(args, top=layout.CARDS),
        with_state(args, top=not_up),
        table_with(args, hidden, layout.HAND | ((me + 1) % n)),  # another hand (R16)
        table_with(args, hidden, layout.PILE_DOWN | ((me + 2) % n)),
        table_with(args, hidden, layout.HAND | n),  # a seat beyond the players
        table_with(args, hidden, layout.MASTER | 7, novel_at),
        table_with(args, hidden, 0x03),  # no place code
        table_with(args, hidden, 0x04 | (n - 1)),
        table_with(args, hidden, 0x18),
        table_with(args, hidden, 0x28 | me),
        table_with(args, hidden, 0x50),
        table_with(args, hidden, 0xFF),
        table_with(args, novel, layout.PUBLISHED | me, len(args[2])),  # a position beyond slots
        table_with(args, novel, layout.PUBLISHED | me, layout.NO_NOVEL),
        table_with(args, novel, layout.MASTER | me, args[2].index(0xFF)),  # the End Flag
        replaced(args, 2, bytes([k] * len(args[2]))),  # a slot beyond the slots
        replaced(args, 2, b""),
        replaced(args, 3, bytes([layout.MASTER | 1] + [0] * 48)),  # a known card not in a hand
        replaced(args, 3, bytes([layout.HAND | n] + [0] * 48)),
        replaced(args, 3, bytes([0] * 48 + [layout.PILE_UP])),
        fields_with(args, "hand", size=48),  # a size other than the shape's
        fields_with(args, "published", size=(n + 1) * layout.CARDS),
        fields_with(args, "piles", size=2),
        fields_with(args, "phase", size=6),
        fields_with(args, "countdown", size=1),
        fields_with(args, "flag_lost", size=0),
        fields_with(args, "held_masterpiece", size=n * k + 1),
        fields_with(args, "trigger", size=n + 1),
        fields_with(args, "hand_sizes", size=0),  # no seats
        fields_with(args, "supply", size=-1),
        fields_with(args, "hand", offset=-1),  # beyond the array
        fields_with(args, "flag_lost", offset=size),
        fields_with(args, "novel_cards", offset=size - k * layout.CARDS + 1),
    ]
    # The observer beyond the players while the table shows no hidden card of theirs.
    table = bytearray(args[1])
    table[: layout.CARDS] = bytes(c if c & 0xF8 not in (0x08, 0x10) else 0 for c in table[:49])
    public = replaced(args, 1, bytes(table))
    agree(public, size)
    cases += [with_state(public, seat=n), with_state(public, seat=n + 1)]
    # A top discard just beyond the deck, or at card 0 not face up.
    table[layout.CARDS] = layout.PILE_UP  # byte 49 (a Novel byte) reads as PILE_UP
    table[0] = layout.UNSEEN
    cases += [with_state(replaced(args, 1, bytes(table)), top=t) for t in (layout.CARDS, 0)]
    # Each seated place, of the seat just beyond the players.
    cases += [
        table_with(args, hidden, layout.MASTER | n, novel_at),
        table_with(args, hidden, layout.PUBLISHED | n, novel_at),
        table_with(args, hidden, layout.FLAG | n),
        table_with(args, hidden, layout.PILE_DOWN | n),
    ]
    # The layout's errors again with no -1 in the state (an error must not be taken for it).
    full = with_state(args, trigger=0, turns_left=2, top=face_up[0])
    cases += [replaced(case, 7, full[7]) for case in cases if case[0] != args[0]]
    assert face_up
    for case in cases:
        both_raise(ValueError, case, garbage(size, 3))
    # The edges that are still in: a field ending at the buffer's end, a slot of k - 1.
    agree(fields_with(args, "flag_lost", offset=size - 1), size)
    agree(with_state(args, top=face_up[-1]), size)


def out_of_range() -> type[BaseException]:
    """The compiled module's refusal of an input beyond a kernel's ranges."""
    twin(KERNEL)  # skips (or fails where required) when the extension is not built
    from pastiche_core.engine import _speedups

    refused: type[BaseException] = vars(_speedups)["OutOfRange"]
    return refused


def refused_then_answered(args: Args, length: int) -> np.ndarray:
    """The compiled twin refuses ``args``; through the gate the Python rule answers."""
    with pytest.raises(out_of_range()):
        twin(KERNEL)(garbage(length, 0), *args)
    before = KERNEL.stats().fallbacks[_kernels.Fallback.OUT_OF_RANGE]
    gated, python = garbage(length, 0), garbage(length, 0)
    KERNEL(gated, *args)
    KERNEL.python(python, *args)
    assert same(gated, python)
    if KERNEL.compiled is not None:
        assert KERNEL.stats().fallbacks[_kernels.Fallback.OUT_OF_RANGE] == before + 1
    return python


@pytest.mark.parametrize("value", [MAX_INT + 1, 1 << 40, 1 << 70])
def test_counts_beyond_a_float32_are_refused_and_python_answers(value: int) -> None:
    """Every integer is refused beyond 2**24 either way (a float32 holds all integers up to it)."""
    encoder, args = base_inputs()
    size = encoder.size
    for case in [
        replaced(args, 4, (value, *args[4][1:])),
        replaced(args, 4, (*args[4][:-1], -value)),
        replaced(args, 5, (*args[5][:-1], value)),
        replaced(args, 6, (-value, *args[6][1:])),
        with_state(args, deck=value),
        with_state(args, discard=-value),
        with_state(args, face_down=value),
        with_state(args, passes=value),
        with_state(args, turns_left=value),
        with_state(args, turns_left=-value),  # no countdown
        with_state(args, trigger=-value),  # no trigger
        with_state(args, top=-value),  # no face-up top
    ]:
        refused_then_answered(case, size)
    # The edges themselves are in range.
    for edge in (MAX_INT, -MAX_INT):
        agree(replaced(args, 5, (*args[5][:-1], edge)), size)
        agree(replaced(args, 6, (edge, *args[6][1:])), size)
        agree(replaced(args, 4, (edge, *args[4][1:])), size)
        agree(with_state(args, deck=edge, passes=-edge, face_down=edge), size)
    agree(with_state(args, turns_left=MAX_INT), size)
    agree(with_state(args, trigger=-MAX_INT, top=-MAX_INT, turns_left=-MAX_INT), size)


def test_a_seat_beyond_the_float32_range_is_refused_before_it_is_judged() -> None:
    """Refused (and then the Python rule finds the seat beyond the players)."""
    encoder, args = base_inputs()
    for name in ("seat", "to_move", "current", "trigger", "phase", "top"):
        with pytest.raises(out_of_range()):
            twin(KERNEL)(garbage(encoder.size, 0), *with_state(args, **{name: MAX_INT + 1}))
        with pytest.raises(ValueError, match=r"beyond|face-up"):
            KERNEL.python(garbage(encoder.size, 0), *with_state(args, **{name: MAX_INT + 1}))


def layout_of(players: int, novels: int) -> tuple[bytes, int]:
    """fill_public's ``fields`` of the fields one after the other, and their length."""
    sizes = shapes(players, novels)
    offsets, at = {}, 0
    for name in FIELDS:
        offsets[name] = at
        at += sizes[name]
    return pack(offsets, sizes), at


@pytest.mark.parametrize(
    ("players", "novels", "refused"),
    [(9, 3, True), (8, 65, True), (8, 64, False), (1, 0, False), (2, 1, False)],
)
def test_layouts_beyond_eight_seats_or_64_slots_are_refused(
    players: int, novels: int, refused: bool
) -> None:
    """Refused, and through the gate the Python rule answers; up to the edge, the kernel."""
    fields, length = layout_of(players, novels)
    last = min(players - 1, layout.SEAT_MASK)
    table = bytearray(layout.CARD_TABLE_SIZE)
    table[:3] = bytes([layout.HAND, layout.PILE_UP, layout.FLAG | last])
    if novels:
        table[3] = layout.PUBLISHED | last
        table[layout.CARDS + 3] = 1
    args: Args = (
        fields,
        bytes(table),
        bytes([0xFF, novels - 1 if novels else 0xFF]),
        bytes([layout.HAND | last] * 4 + [0] * 45),
        [3] * novels,
        tuple(range(players)),
        tuple(range(players)),
        (0, 3, 0, players - 1, 10, 1, 0, 1, 0, players - 1, 2),
    )
    out = refused_then_answered(args, length) if refused else agree(args, length)
    assert out[:length].sum() > 0


def test_the_encoder_reads_its_inputs_from_the_view() -> None:
    """The packed inputs say what the view says (the kernel never sees the view)."""
    encoder, args = base_inputs()
    _, _, slots, known, supply, _, _, state = args
    assert len(supply) == len(encoder.novels)
    assert bytes(slots) == bytes(range(len(encoder.novels))) + b"\xff"
    assert state[observation._STATE.index("top")] >= 0
    assert all(code in (0, *(layout.HAND | s for s in range(4))) for code in known)
    other = ObservationEncoder(4, Catalogue.default())
    assert other._inputs(Game(players=4, seed=5).view(0), None)[2] == slots


def test_the_most_values_one_call_writes() -> None:
    """Every card under a novel or face up, every card known, every mark set: 202 ones."""
    players, novels = 8, 64
    fields, length = layout_of(players, novels)
    me = 3
    table = bytearray(layout.CARD_TABLE_SIZE)
    for card in range(layout.CARDS - 1):
        place = layout.PUBLISHED if card % 3 else layout.MASTER
        table[card] = place | card % players
        table[layout.CARDS + card] = card % novels
    table[layout.CARDS - 1] = layout.PILE_UP
    known = bytes(layout.HAND | card % players for card in range(layout.CARDS))
    args: Args = (
        fields,
        bytes(table),
        bytes(range(novels)),
        known,
        list(range(novels)),
        tuple(range(players)),
        tuple(range(players)),
        (me, 1, 5, 6, 0, 1, 0, layout.CARDS - 1, 2, 7, 0),
    )
    out = agree(args, length)
    assert int((out == 1.0).sum()) >= 202
    flagged = bytearray(table)
    flagged[0] = layout.FLAG | 2
    agree(replaced(args, 1, bytes(flagged)), length)
