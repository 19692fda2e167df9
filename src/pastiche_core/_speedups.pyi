# The compiled kernels of _speedups.c (see movegen for their Python references).
from collections.abc import Sequence
from typing import Any

def segment_count(
    ranks: Sequence[int],
    needs: Sequence[int],
    hand: Sequence[int],
    marked: Sequence[Sequence[int]],
    limit: int,
) -> int: ...
def payable_totals(
    pool: Sequence[int],
    hand: Sequence[int],
    own: Sequence[int],
    limit: int,
    count: int,
    target: int,
    first: bool,
) -> list[tuple[int, ...]]: ...
def publish_counts(
    player: int,
    hand: set[Any],
    tables: list[dict[str, tuple[Any, ...]]],
    supply: dict[str, int],
    plan: list[tuple[str, int, int, int, int]],
    first: bool = False,
) -> list[tuple[str, tuple[int, ...], tuple[int, ...], int]]: ...
def decode_publish(
    player: int,
    hand: set[Any],
    tables: list[dict[str, tuple[Any, ...]]],
    ranks: Sequence[int],
    needs: Sequence[int],
    index: int,
) -> tuple[tuple[Any, ...], list[tuple[int, str]], list[tuple[int, Any]]]: ...
def fill_public(
    out: Any,
    fields: bytes | bytearray | memoryview,
    table: bytes | bytearray | memoryview,
    slots: bytes | bytearray | memoryview,
    known: bytes | bytearray | memoryview,
    supply: Sequence[int],
    hand_sizes: Sequence[int],
    scores: Sequence[int],
    state: Sequence[int],
) -> None: ...
def publish_table(
    player: int, hand: Sequence[Any], tables: list[dict[str, tuple[Any, ...]]]
) -> bytes: ...
def feasible_combos(
    table: bytes,
    combos: list[Sequence[int]],
    chosen: Sequence[int],
    last_rank: int,
    last_kind: int,
    last_card: int,
    played: int,
    owed: int,
) -> list[Sequence[int]]: ...
def cards_mask(
    table: bytes,
    combos: list[Sequence[int]],
    chosen: Sequence[int],
    last_rank: int,
    last_kind: int,
    last_card: int,
    played: int,
    owed: int,
    confirm: int,
    play: int,
    cite: int,
) -> list[int]: ...
def start_actions(
    player: int,
    hand: set[Any],
    tables: Sequence[Sequence[Any]],
    supply: dict[str, int],
    plan: list[tuple[str, int, int, int, int]],
    read_base: int,
    novel_actions: dict[str, int],
) -> list[int]: ...
def publish_start(
    player: int,
    hand: set[Any],
    tables: Sequence[Sequence[Any]],
    supply: dict[str, int],
    plan: list[tuple[str, int, int, int, int]],
) -> tuple[bytes, list[bytes]]: ...
def policy_publishes(
    in_hand: Sequence[int],
    own: Sequence[int],
    others: Sequence[int],
    hand_size: int,
    plan: list[tuple[int, int, int, int, int]],
    usable: Sequence[int],
    weights: tuple[float, float, float],
    turns_left: int,
    limit: int,
    floor: float,
) -> list[tuple[float, int, tuple[tuple[int, int], ...], bool]]: ...
