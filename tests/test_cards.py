"""Story cards, genres and card notation (R1)."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import card_sets, cards, copies_of_rank

from pastiche_core import (
    DECK,
    MAX_RANK,
    MIN_RANK,
    Card,
    Genre,
    InvalidNotationError,
    PasticheError,
    format_cards,
    parse_cards,
)

# R1's table, written out independently of the Genre enum.
R1_TABLE = [
    ("MYTHOLOGY", "MYT", 1, 7),
    ("LOVE STORY", "LOV", 2, 8),
    ("SCIENCE FICTION", "SCI", 3, 9),
    ("HORROR", "HOR", 4, 10),
    ("MYSTERY", "MYS", 5, 11),
    ("FANTASY", "FAN", 6, 12),
    ("MAGIC REALISM", "MAG", 7, 13),
]


# --- the deck -------------------------------------------------------------------


def test_r1_deck_has_49_distinct_cards() -> None:
    assert len(DECK) == 49
    assert len(set(DECK)) == 49
    assert len({str(card) for card in DECK}) == 49


def test_r1_genres_follow_the_rulebook_order_and_ranges() -> None:
    actual = [(g.title, g.code, g.low, g.high) for g in Genre]
    assert actual == R1_TABLE
    for genre in Genre:
        assert list(genre.ranks()) == list(range(genre.low, genre.high + 1))
        assert len(genre.ranks()) == 7


def test_r1_every_genre_has_its_seven_consecutive_ranks_in_the_deck() -> None:
    for title, code, low, high in R1_TABLE:
        ranks = sorted(card.rank for card in DECK if card.genre.code == code)
        assert ranks == list(range(low, high + 1)), title


def test_r1_rank_r_appears_min_r_14_minus_r_7_times() -> None:
    counts = Counter(card.rank for card in DECK)
    assert sorted(counts) == list(range(MIN_RANK, MAX_RANK + 1))
    for rank in range(MIN_RANK, MAX_RANK + 1):
        assert counts[rank] == min(rank, 14 - rank, 7), rank
    assert counts[1] == counts[13] == 1
    assert counts[7] == 7
    assert [counts[r] for r in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1]
    assert all(counts[r] == copies_of_rank(r) for r in counts)


def test_r1_deck_is_in_canonical_order_and_indexed() -> None:
    assert list(DECK) == sorted(DECK)
    assert list(DECK) == sorted(DECK, key=lambda c: (c.genre.order, c.rank))
    for position, card in enumerate(DECK):
        assert card.index == position
        assert Card.from_index(position) is card
    assert str(DECK[0]) == "MYT1"
    assert str(DECK[-1]) == "MAG13"


@pytest.mark.parametrize("index", [-1, 49, 100, True, 1.0, "3", None])
def test_r1_from_index_rejects_what_is_not_a_deck_position(index: object) -> None:
    with pytest.raises(InvalidNotationError, match="invalid card index"):
        Card.from_index(index)  # type: ignore[arg-type]


# --- notation -------------------------------------------------------------------


def test_r1_every_card_round_trips() -> None:
    for card in DECK:
        text = str(card)
        assert Card.parse(text) is card
        assert card.notation == text
        assert text == f"{card.genre.code}{card.rank}"
        assert text == text.upper()
        assert repr(card) == f"Card.parse('{text}')"
        assert eval(repr(card), {"Card": Card}) is card


@given(cards(), st.data())
def test_r1_parsing_is_case_insensitive(card: Card, data: st.DataObject) -> None:
    text = str(card)
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    mixed = "".join(ch.lower() if flip else ch for ch, flip in zip(text, flips, strict=True))
    assert Card.parse(mixed) is card
    assert Card.parse(text.lower()) is card
    assert Card.parse(f"  {mixed}\t\n") is card


def test_r1_constructor_and_parse_give_the_same_interned_card() -> None:
    for card in DECK:
        assert Card(card.genre, card.rank) is card
        assert Card.parse(str(card).lower()) is card


def test_r1_canonical_examples() -> None:
    sci9 = Card.parse("SCI9")
    assert sci9.genre is Genre.SCIENCE_FICTION
    assert sci9.rank == 9
    mag13 = Card.parse("mag13")
    assert mag13.genre is Genre.MAGIC_REALISM
    assert mag13.rank == 13
    assert str(Card(Genre.MAGIC_REALISM, 13)) == "MAG13"


BAD_NOTATION = [
    "LOV1",  # LOVE STORY starts at 2
    "SCI10",  # SCIENCE FICTION ends at 9
    "MYT8",
    "MAG6",
    "MAG14",
    "MYT0",
    "XYZ4",  # unknown genre
    "",
    "   ",
    "SCI09",  # leading zero: not canonical
    "SCI009",
    "SCI 9",  # no space inside a card
    "SCI",
    "9",
    "SC9",
    "SCII9",
    "SCI9X",
    "SCI-9",
    "SCI+9",
    "SCI9.0",
    "SCI9 HOR7",  # two cards
    "SCI\u0669",  # an Arabic-Indic nine is not a rank
    "\u017fCI9",  # 'ſ'.upper() == 'S', but notation is ASCII
    "MYT\u00b9",  # superscript one
    "SCI\u00b2",  # superscript two: str.isdigit() says yes, int() says no
    "SCI9\x00",  # a NUL byte is not a space
    "\x00SCI9",
    "SCI\ud800",  # a lone surrogate
    "\ud800",
    "\uff33\uff23\uff29\uff19",  # full-width SCI9
]


@pytest.mark.parametrize("text", BAD_NOTATION)
def test_r1_invalid_notation_raises_and_quotes_the_input(text: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        Card.parse(text)
    message = str(info.value)
    assert message.startswith("invalid card ")
    quoted = {repr(text), repr(text.strip()), repr(text.strip().upper())}
    assert any(q in message for q in quoted), message
    assert "R1" in message


@pytest.mark.parametrize(
    "text",
    ["SCI9 " * 200_000, "x" * 1_000_000, "SCI" + "9" * 5000, " " * 100 + "SCI9"],
    ids=["a-million-cards", "a-megabyte", "5000-digits", "padded"],
)
def test_r1_long_card_text_fails_with_a_short_message(text: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        Card.parse(text)
    assert len(str(info.value)) < 200
    assert repr(text[:40]) in str(info.value)


def test_r1_long_card_lists_fail_with_a_short_message() -> None:
    with pytest.raises(InvalidNotationError, match="longer than 4,096 characters") as info:
        parse_cards("SCI9 " * 200_000)
    assert len(str(info.value)) < 200
    assert parse_cards(" SCI9 " * 600) == [Card.parse("SCI9")] * 600  # long but within the bound


@pytest.mark.parametrize(
    "rank", [10**5000, -(10**5000), 10**50], ids=["big", "negative", "50-digits"]
)
def test_r1_huge_ranks_and_indexes_are_clean_errors(rank: int) -> None:
    # str() of an integer beyond 4,300 digits raises ValueError: messages must not try it.
    with pytest.raises(InvalidNotationError, match="more than 40 digits"):
        Card(Genre.HORROR, rank)
    with pytest.raises(InvalidNotationError, match="more than 40 digits"):
        Card.from_index(rank)


@pytest.mark.parametrize(
    "code",
    ["x" * 1_000_000, "\ud800", "\x00", 10**5000, ["SCI"]],
    ids=["a-megabyte", "surrogate", "nul", "5000-digits", "list"],
)
def test_r1_genre_codes_are_quoted_briefly(code: object) -> None:
    with pytest.raises(InvalidNotationError, match="unknown genre code") as info:
        Genre.from_code(code)  # type: ignore[arg-type]
    assert len(str(info.value)) < 200
    assert str(info.value).isprintable()


def test_r1_invalid_notation_error_is_a_value_error() -> None:
    assert issubclass(InvalidNotationError, PasticheError)
    assert issubclass(InvalidNotationError, ValueError)
    with pytest.raises(ValueError, match="LOV1"):
        Card.parse("LOV1")


def test_r1_invalid_notation_messages_explain_the_problem() -> None:
    with pytest.raises(InvalidNotationError, match=r"LOVE STORY has ranks 2-8"):
        Card.parse("lov1")
    with pytest.raises(InvalidNotationError, match=r"unknown genre code 'XYZ'"):
        Card.parse("XYZ4")
    with pytest.raises(InvalidNotationError, match=r"'SCI09'.*SCIENCE FICTION has ranks 3-9"):
        Card.parse("SCI09")
    with pytest.raises(InvalidNotationError, match=r"expected a genre code and a rank"):
        Card.parse("SCI 9")


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (9, "9"),
        (None, "None"),
        (9.0, "9.0"),
        (b"SCI9", "a bytes"),
        (["SCI9"], "a list"),
        (DECK[0], "a Card"),
        (10**5000, "an integer of more than 40 digits"),
    ],
    ids=["int", "none", "float", "bytes", "list", "card", "5000-digits"],
)
def test_r1_parse_rejects_non_strings(value: object, shown: str) -> None:
    # Non-strings are named by type: a repr can be huge, or fail for long integers.
    with pytest.raises(InvalidNotationError, match="expected a string") as info:
        Card.parse(value)  # type: ignore[arg-type]
    assert str(info.value) == f"invalid card {shown}: expected a string such as 'SCI9' (R1)"


@pytest.mark.parametrize("value", [9, None, b"SCI9", ["SCI9"]])
def test_r1_parse_cards_rejects_non_strings(value: object) -> None:
    with pytest.raises(InvalidNotationError, match="expected a string"):
        parse_cards(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("genre", "rank"),
    [
        (Genre.LOVE_STORY, 1),
        (Genre.SCIENCE_FICTION, 10),
        (Genre.MYTHOLOGY, 0),
        (Genre.MYTHOLOGY, -1),
        (Genre.MYTHOLOGY, True),  # True == 1, but a bool is not a rank
        (Genre.HORROR, 7.0),
        (Genre.HORROR, "7"),
        (Genre.HORROR, None),
    ],
)
def test_r1_constructor_rejects_invalid_ranks(genre: Genre, rank: object) -> None:
    with pytest.raises(InvalidNotationError, match=genre.title):
        Card(genre, rank)  # type: ignore[arg-type]


@pytest.mark.parametrize("genre", ["SCI", "SCIENCE_FICTION", 2, None])
def test_r1_constructor_rejects_non_genres(genre: object) -> None:
    with pytest.raises(InvalidNotationError, match="expected a Genre"):
        Card(genre, 5)  # type: ignore[arg-type]


def test_r1_int_subclass_rank_gives_the_interned_card() -> None:
    class Rank(int):
        pass

    card = Card(Genre.HORROR, Rank(7))
    assert card is Card.parse("HOR7")
    assert type(card.rank) is int
    assert Card(Genre.HORROR, 7) is card


def test_r1_genre_codes() -> None:
    for _title, code, _low, _high in R1_TABLE:
        assert Genre.from_code(code).code == code
        assert Genre.from_code(code.lower()).code == code
        assert Genre.from_code(code.capitalize()).code == code
    assert Genre.from_code("sci") is Genre.SCIENCE_FICTION


@pytest.mark.parametrize("code", ["XYZ", "", "SC", "SCIE", "\u017fci", "MYT ", 3, None])
def test_r1_unknown_genre_codes_are_rejected(code: object) -> None:
    with pytest.raises(InvalidNotationError, match="unknown genre code"):
        Genre.from_code(code)  # type: ignore[arg-type]


# --- several cards ----------------------------------------------------------------


def test_r1_parse_cards_with_separators() -> None:
    expected = [Card.parse("SCI9"), Card.parse("HOR7"), Card.parse("MYS7")]
    assert parse_cards("SCI9 hor7, MYS7") == expected
    assert parse_cards("SCI9;HOR7;MYS7") == expected
    assert parse_cards(" sci9,\thor7 ;\n mys7 ") == expected
    assert parse_cards("SCI9,,HOR7 ,; MYS7") == expected


def test_r1_parse_cards_empty_and_duplicates() -> None:
    assert parse_cards("") == []
    assert parse_cards("  ,; ") == []
    assert parse_cards("SCI9 sci9") == [Card.parse("SCI9")] * 2
    assert parse_cards("MAG13 MYT1") == [Card.parse("MAG13"), Card.parse("MYT1")]  # as written


def test_r1_parse_cards_names_the_bad_token() -> None:
    with pytest.raises(InvalidNotationError, match="'XYZ4'"):
        parse_cards("SCI9 XYZ4")
    with pytest.raises(InvalidNotationError, match="LOV1"):
        parse_cards("SCI9, LOV1, HOR7")


def test_r1_format_cards() -> None:
    cs = parse_cards("SCI9 MYT6 SCI7")
    assert format_cards(cs) == "MYT6 SCI7 SCI9"
    assert format_cards(cs, sort=False) == "SCI9 MYT6 SCI7"
    assert format_cards([]) == ""
    assert format_cards(iter(cs)) == "MYT6 SCI7 SCI9"
    assert format_cards(DECK) == " ".join(str(c) for c in DECK)


@given(card_sets())
def test_r1_format_then_parse_round_trips(chosen: list[Card]) -> None:
    assert parse_cards(format_cards(chosen)) == sorted(chosen)
    assert parse_cards(format_cards(reversed(chosen), sort=False)) == chosen[::-1]
    assert parse_cards(format_cards(chosen).lower().replace(" ", ", ")) == sorted(chosen)


# --- value semantics ------------------------------------------------------------------


def test_r1_cards_are_immutable() -> None:
    card = Card.parse("SCI9")
    with pytest.raises(AttributeError):
        card.rank = 3
    with pytest.raises(AttributeError):
        card.genre = Genre.HORROR
    with pytest.raises(AttributeError):
        del card.rank
    with pytest.raises(AttributeError):
        card.colour = "red"
    assert not hasattr(card, "__dict__")
    assert card.rank == 9
    assert card.genre is Genre.SCIENCE_FICTION
    assert Card.parse("SCI9") is card


def test_r1_hash_and_equality() -> None:
    assert len({hash(card) for card in DECK}) == 49
    for card in DECK:
        twin = Card.parse(str(card))
        assert twin == card
        assert hash(twin) == hash(card)
        assert (twin != card) is False
    a, b = Card.parse("SCI7"), Card.parse("HOR7")
    assert a != b  # same rank, different genre
    assert Card.parse("SCI7") != Card.parse("SCI8")
    for other in ("SCI7", 7, (Genre.SCIENCE_FICTION, 7), None):
        assert a != other
    lookup = {card: str(card) for card in DECK}
    assert lookup[Card.parse("mag13")] == "MAG13"


@given(cards(), cards())
def test_r1_ordering_is_genre_then_rank(a: Card, b: Card) -> None:
    key_a, key_b = (a.genre.order, a.rank), (b.genre.order, b.rank)
    assert (a < b) == (key_a < key_b)
    assert (a <= b) == (key_a <= key_b)
    assert (a > b) == (key_a > key_b)
    assert (a >= b) == (key_a >= key_b)
    assert (a == b) == (key_a == key_b)


@given(st.permutations(DECK))
def test_r1_sorting_any_shuffle_gives_the_deck(shuffled: list[Card]) -> None:
    assert tuple(sorted(shuffled)) == DECK


def test_r1_ordering_against_other_types_is_a_type_error() -> None:
    card = Card.parse("SCI9")
    with pytest.raises(TypeError):
        _ = card < 5
    with pytest.raises(TypeError):
        _ = card >= "SCI9"
    with pytest.raises(TypeError):
        sorted([card, 9])  # type: ignore[type-var]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_r1_pickling_returns_the_interned_card(protocol: int) -> None:
    for card in DECK:
        assert pickle.loads(pickle.dumps(card, protocol=protocol)) is card
    restored = pickle.loads(pickle.dumps(list(DECK), protocol=protocol))
    assert all(x is y for x, y in zip(restored, DECK, strict=True))


def test_r1_copy_returns_the_same_card() -> None:
    for card in DECK:
        assert copy.copy(card) is card
        assert copy.deepcopy(card) is card
    hand = {"hand": [Card.parse("SCI9"), Card.parse("HOR7")]}
    clone = copy.deepcopy(hand)
    assert clone["hand"] is not hand["hand"]
    assert all(x is y for x, y in zip(clone["hand"], hand["hand"], strict=True))
