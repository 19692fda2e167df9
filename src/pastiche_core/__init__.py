"""pastiche_core: the reference rules engine for *Pastiche: The Birth of a Masterpiece*.

>>> from pastiche_core import Game, Card
>>> game = Game(players=4, seed=7)
>>> Card.parse("LOV4") in game.hand(0)  # the deal is the seed's, every time (R14)
True
>>> game.phase
<Phase.KEEP: 'keep'>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__ as __version__  # the one home of the version
from .bots.play import (
    DEFAULT_MAX_DECISIONS,
    Bot,
    DecisionLimitError,
    RandomBot,
    derive_seed,
    play_game,
)
from .bots.simulate import ENDINGS, SimulationSummary, game_seed, simulate
from .data.cards import DECK, MAX_RANK, MIN_RANK, Card, Genre, format_cards, parse_cards
from .data.catalogue import END_FLAG_ID, SHIPPED_CATALOGUES, Catalogue, NovelSpec, load_catalogue
from .data.errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidCatalogueError,
    InvalidNotationError,
    InvalidRulesError,
    InvalidStateError,
    InvalidViewError,
    PasticheError,
    SearchLimitError,
)
from .data.limits import CLI_MAX_OPTIONS, DEFAULT_MAX_OPTIONS, DEFAULT_TIME_LIMIT, Deadline
from .data.patterns import (
    CountingPattern,
    CustomPattern,
    OfAKind,
    Pairs,
    Pattern,
    RankCounts,
    Straight,
    Total,
    combination_count,
    rank_counts,
    sub_multisets,
)
from .data.registry import (
    BUILTIN_KINDS,
    PatternFactory,
    pattern_factory,
    register_pattern,
    registered_patterns,
    unregister_pattern,
)
from .data.rng import GameRng
from .engine._kernels import KernelReport, compiled_kernels
from .engine.game import Game, GameResult, LegalMoves
from .engine.moves import (
    Choose,
    Draw,
    Gift,
    Keep,
    Move,
    NovelRef,
    Pass,
    Publish,
    Read,
    TakeDiscard,
    TakeFlag,
)
from .engine.recognition import novel_combinations, recognize, satisfied_novels
from .engine.rules import (
    DEAL_SIZES,
    END_THRESHOLD,
    KEEP_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULEBOOK,
    Phase,
    Rules,
    rules_of,
)
from .engine.table import TableNovel
from .engine.view import PlayerView
from .io import (
    STATE_FORMAT,
    STATE_VERSION,
    VIEW_FORMAT,
    VIEW_VERSION,
    load_position,
    load_query,
    position_from_dict,
    position_from_json,
    position_to_dict,
    position_to_json,
    query_from_dict,
    query_from_json,
    schema,
    state_from_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
    view_from_dict,
    view_to_dict,
)
from .io.invariants import check_invariants
from .io.record import RECORD_FORMAT, RECORD_VERSION, GameRecord
from .io.render import (
    PALETTE,
    Swatch,
    cards_svg,
    game_html,
    game_svg,
    options_html,
    position_svg,
    print_rich,
    rich_text,
)
from .solver.cpsat import CpSatResult
from .solver.gifts import (
    DEFAULT_SEARCH_LIMIT,
    GiftPolicy,
    LowestCardsPolicy,
    MostOptionsPolicy,
    gift_candidates,
    position_after,
    to_publish,
)
from .solver.options import Constraints, PublishOption, check_option, make_option, option_key
from .solver.outs import OUTS_FORMAT, OUTS_VERSION, NovelOuts, OutsReport, outs
from .solver.position import Masterpiece, Position
from .solver.queries import ENGINES, best, is_publishable, solve, why_not
from .solver.report import GOALS, PUBLISHES_FORMAT, PUBLISHES_VERSION, Best, PublishReport

__all__ = [
    "BUILTIN_KINDS",
    "CLI_MAX_OPTIONS",
    "DEAL_SIZES",
    "DECK",
    "DEFAULT_MAX_DECISIONS",
    "DEFAULT_MAX_OPTIONS",
    "DEFAULT_SEARCH_LIMIT",
    "DEFAULT_TIME_LIMIT",
    "ENDINGS",
    "END_FLAG_ID",
    "END_THRESHOLD",
    "ENGINES",
    "GOALS",
    "KEEP_SIZE",
    "MAX_PLAYERS",
    "MAX_RANK",
    "MIN_PLAYERS",
    "MIN_RANK",
    "OUTS_FORMAT",
    "OUTS_VERSION",
    "PALETTE",
    "PUBLISHES_FORMAT",
    "PUBLISHES_VERSION",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RULEBOOK",
    "SHIPPED_CATALOGUES",
    "STATE_FORMAT",
    "STATE_VERSION",
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "Best",
    "Bot",
    "Card",
    "Catalogue",
    "Choose",
    "Constraints",
    "CountingPattern",
    "CpSatResult",
    "CustomPattern",
    "Deadline",
    "DecisionLimitError",
    "Draw",
    "Game",
    "GameRecord",
    "GameResult",
    "GameRng",
    "Genre",
    "Gift",
    "GiftPolicy",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidCatalogueError",
    "InvalidNotationError",
    "InvalidRulesError",
    "InvalidStateError",
    "InvalidViewError",
    "Keep",
    "KernelReport",
    "LegalMoves",
    "LowestCardsPolicy",
    "Masterpiece",
    "MostOptionsPolicy",
    "Move",
    "NovelOuts",
    "NovelRef",
    "NovelSpec",
    "OfAKind",
    "OutsReport",
    "Pairs",
    "Pass",
    "PasticheError",
    "Pattern",
    "PatternFactory",
    "Phase",
    "PlayerView",
    "Position",
    "Publish",
    "PublishOption",
    "PublishReport",
    "RandomBot",
    "RankCounts",
    "Read",
    "Rules",
    "SearchLimitError",
    "SimulationSummary",
    "Straight",
    "Swatch",
    "TableNovel",
    "TakeDiscard",
    "TakeFlag",
    "Total",
    "best",
    "cards_svg",
    "check_invariants",
    "check_option",
    "combination_count",
    "compiled_kernels",
    "derive_seed",
    "format_cards",
    "game_html",
    "game_seed",
    "game_svg",
    "gift_candidates",
    "is_publishable",
    "load_catalogue",
    "load_position",
    "load_query",
    "make_option",
    "novel_combinations",
    "option_key",
    "options_html",
    "outs",
    "parse_cards",
    "pattern_factory",
    "play_game",
    "position_after",
    "position_from_dict",
    "position_from_json",
    "position_svg",
    "position_to_dict",
    "position_to_json",
    "print_rich",
    "query_from_dict",
    "query_from_json",
    "rank_counts",
    "recognize",
    "register_pattern",
    "registered_patterns",
    "review",
    "rich_text",
    "rules_of",
    "satisfied_novels",
    "schema",
    "simulate",
    "solve",
    "state_from_dict",
    "state_from_json",
    "state_to_dict",
    "state_to_json",
    "sub_multisets",
    "to_publish",
    "unregister_pattern",
    "view_from_dict",
    "view_to_dict",
    "why_not",
]

# The capabilities above the solver load on first use: ``import pastiche_core`` stays light.
if TYPE_CHECKING:
    from .ai.review import review as review


def __getattr__(name: str) -> Any:
    """The names loaded on first use (``review``, from :mod:`pastiche_core.ai.review`).

    >>> import pastiche_core
    >>> pastiche_core.review.__module__
    'pastiche_core.ai.review'
    """
    if name == "review":
        from .ai.review import review

        return review
    raise AttributeError(f"module 'pastiche_core' has no attribute {name!r}")
