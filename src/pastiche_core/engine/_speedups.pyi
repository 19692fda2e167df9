# The compiled twins in csrc/, reached only through pastiche_core.engine._kernels. Each has the
# signature of its Python rule (named beside it); the packed arguments are laid out as
# pastiche_core.engine.layout documents. A twin raises OutOfRange for an input beyond its ranges.
from collections.abc import Sequence
from typing import Any

_Bytes = bytes | bytearray | memoryview

LAYOUT_VERSION: int
CARD_TABLE_SIZE: int

class OutOfRange(OverflowError): ...  # noqa: N818 (the C module names it)
class Reentrant(RuntimeError): ...  # noqa: N818 (the C module names it)

# movegen._publish_counts_py: (plan index, ranks, needs, count) per segment.
def publish_counts(
    table: _Bytes, player: int, usable: bytes, plan: bytes, first: bool
) -> list[tuple[int, tuple[int, ...], tuple[int, ...], int]]: ...

# movegen._segment_count_py
def segment_count(
    table: _Bytes, player: int, ranks: Sequence[int], needs: Sequence[int]
) -> int: ...

# movegen._decode_publish_py: played, cited and (owner, card) gifts, as card indexes.
def decode_publish(
    table: _Bytes, player: int, ranks: Sequence[int], needs: Sequence[int], index: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]: ...

# feasibility._payable_totals_py
def payable_totals(
    pool: Sequence[int],
    hand: Sequence[int],
    own: Sequence[int],
    limit: int,
    count: int,
    target: int,
    first: bool,
) -> list[tuple[int, ...]]: ...

# rl.encoding._start_actions_py
def start_actions(
    table: bytes, player: int, usable: bytes, plan: bytes, read_base: int, novel_base: int
) -> list[int]: ...

# rl.encoding._publish_start_py
def publish_start(table: bytes, player: int, usable: bytes, plan: bytes) -> list[bytes]: ...

# rl.encoding._feasible_combos_py
def feasible_combos(
    table: bytes,
    player: int,
    combos: list[bytes],
    chosen: Sequence[int],
    last_rank: int,
    last_kind: int,
    last_card: int,
    played: int,
    owed: int,
) -> list[bytes]: ...

# rl.encoding._cards_mask_py
def cards_mask(
    table: bytes,
    player: int,
    combos: list[bytes],
    chosen: Sequence[int],
    last_rank: int,
    last_kind: int,
    last_card: int,
    played: int,
    owed: int,
    confirm: int,
    play_base: int,
    cite_base: int,
) -> list[int]: ...

# rl.observation._fill_public_py: writes into out (float32, C-contiguous).
def fill_public(
    out: Any,
    fields: _Bytes,
    table: _Bytes,
    slots: _Bytes,
    known: _Bytes,
    supply: Sequence[int],
    hand_sizes: Sequence[int],
    scores: Sequence[int],
    state: Sequence[int],
) -> None: ...

# ai.playout._policy_publishes_py: (value, plan index, (rank, count) runs, cite first).
def policy_publishes(
    in_hand: Sequence[int],
    own: Sequence[int],
    others: Sequence[int],
    hand_size: int,
    plan: bytes,
    usable: bytes,
    weights: tuple[float, float, float],
    turns_left: int,
    limit: int,
    floor: float,
) -> list[tuple[float, int, tuple[tuple[int, int], ...], bool]]: ...

# ai.heuristics._prospects_py
def prospects(
    hand: Sequence[int],
    own: Sequence[int],
    rival: Sequence[int],
    pool: Sequence[int],
    plan: bytes,
    usable: bytes,
    weights: tuple[float, float, float, float, float],
    horizon: int,
) -> float: ...

# bots._random_game_py: (turns, decisions, scores, masterpieces, winners, reason), with
# ``trace`` paired with every decision's (legal moves, index drawn).
def random_game(
    catalogue: object,
    plan: bytes | None,
    positions: Sequence[int],
    copies: Sequence[int],
    flag_points: int,
    rules: object,
    packed_rules: Sequence[int],
    players: int,
    seed: int,
    bot_seeds: Sequence[int],
    max_decisions: int,
    trace: bool,
) -> Any: ...

# rl.vector._PythonEpisodes: the games of a vector environment (an object with its methods).
def episodes(
    settings: object,
    count: int,
    plan: bytes | None,
    positions: Sequence[int],
    copies: Sequence[int],
    flag_points: int,
    rules: Sequence[int],
    players: int,
    packed: bool,
    fields: bytes,
    size: int,
    building: Sequence[int],
    slots: bytes,
    actions: int,
) -> Any: ...
