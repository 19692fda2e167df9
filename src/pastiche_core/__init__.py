"""pastiche_core: the reference rules engine for *Pastiche: The Birth of a Masterpiece*.

>>> from pastiche_core import Game, Card
>>> game = Game(players=4, seed=7)
>>> Card.parse("SCI9") in game.hand(0) or True
True
"""

from __future__ import annotations

from .bots import DEFAULT_MAX_DECISIONS, Bot, DecisionLimitError, RandomBot, derive_seed, play_game
from .cards import DECK, MAX_RANK, MIN_RANK, Card, Genre, format_cards, parse_cards
from .catalogue import END_FLAG_ID, Catalogue, NovelSpec, load_catalogue
from .errors import (
    IllegalMoveError,
    InvalidCatalogueError,
    InvalidNotationError,
    InvalidStateError,
    PasticheError,
)
from .game import (
    DEAL_SIZES,
    END_THRESHOLD,
    KEEP_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Game,
    GameResult,
    LegalMoves,
    Phase,
)
from .gifts import (
    DEFAULT_SEARCH_LIMIT,
    GiftPolicy,
    LowestCardsPolicy,
    MostOptionsPolicy,
    gift_candidates,
    position_after,
    to_publish,
)
from .moves import (
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
from .options import Constraints, PublishOption, check_option, make_option, option_key
from .patterns import (
    CustomPattern,
    OfAKind,
    Pairs,
    Pattern,
    RankCounts,
    Straight,
    Total,
    rank_counts,
    sub_multisets,
)
from .position import Masterpiece, Position
from .position_json import (
    load_position,
    load_query,
    position_from_dict,
    position_from_json,
    position_to_dict,
    position_to_json,
    query_from_dict,
    query_from_json,
    schema,
)
from .recognition import novel_combinations, recognize, satisfied_novels
from .record import RECORD_FORMAT, RECORD_VERSION, GameRecord
from .rng import GameRng
from .serialization import (
    STATE_FORMAT,
    STATE_VERSION,
    VIEW_FORMAT,
    VIEW_VERSION,
    state_from_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
    view_from_dict,
    view_to_dict,
)
from .simulate import ENDINGS, SimulationSummary, game_seed, simulate
from .solver import (
    ENGINES,
    PUBLISHES_FORMAT,
    PUBLISHES_VERSION,
    PublishReport,
    best,
    is_publishable,
    solve,
)
from .table import TableNovel
from .view import PlayerView

__version__ = "0.1.0"

__all__ = [
    "DEAL_SIZES",
    "DECK",
    "DEFAULT_MAX_DECISIONS",
    "DEFAULT_SEARCH_LIMIT",
    "ENDINGS",
    "END_FLAG_ID",
    "END_THRESHOLD",
    "ENGINES",
    "KEEP_SIZE",
    "MAX_PLAYERS",
    "MAX_RANK",
    "MIN_PLAYERS",
    "MIN_RANK",
    "PUBLISHES_FORMAT",
    "PUBLISHES_VERSION",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "STATE_FORMAT",
    "STATE_VERSION",
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "Bot",
    "Card",
    "Catalogue",
    "Choose",
    "Constraints",
    "CustomPattern",
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
    "InvalidCatalogueError",
    "InvalidNotationError",
    "InvalidStateError",
    "Keep",
    "LegalMoves",
    "LowestCardsPolicy",
    "Masterpiece",
    "MostOptionsPolicy",
    "Move",
    "NovelRef",
    "NovelSpec",
    "OfAKind",
    "Pairs",
    "Pass",
    "PasticheError",
    "Pattern",
    "Phase",
    "PlayerView",
    "Position",
    "Publish",
    "PublishOption",
    "PublishReport",
    "RandomBot",
    "RankCounts",
    "Read",
    "SimulationSummary",
    "Straight",
    "TableNovel",
    "TakeDiscard",
    "TakeFlag",
    "Total",
    "best",
    "check_option",
    "derive_seed",
    "format_cards",
    "game_seed",
    "gift_candidates",
    "is_publishable",
    "load_catalogue",
    "load_position",
    "load_query",
    "make_option",
    "novel_combinations",
    "option_key",
    "parse_cards",
    "play_game",
    "position_after",
    "position_from_dict",
    "position_from_json",
    "position_to_dict",
    "position_to_json",
    "query_from_dict",
    "query_from_json",
    "rank_counts",
    "recognize",
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
    "view_from_dict",
    "view_to_dict",
]
