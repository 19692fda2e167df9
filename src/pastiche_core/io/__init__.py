"""Reading and writing the library's JSON documents, safely.

One public face for every document a program or a stranger may send:
game states (:mod:`~pastiche_core.io.state_json`), players' views
(:mod:`~pastiche_core.io.view_json`) and publish positions
(:mod:`~pastiche_core.io.position_json`), all decoded by
:func:`~pastiche_core.io.jsontext.loads` under the same limits. Game records
live with :class:`~pastiche_core.io.record.GameRecord`.

>>> from pastiche_core import Game
>>> from pastiche_core.io import state_from_json, state_to_json
>>> game = Game(players=3, seed=7)
>>> state_from_json(state_to_json(game)) == game
True
"""

from __future__ import annotations

from .jsontext import MAX_INT_DIGITS, MAX_JSON_BYTES, MAX_JSON_DEPTH, loads
from .position_json import (
    SCHEMAS,
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
from .state_json import (
    MAX_HISTORY,
    STATE_FORMAT,
    STATE_VERSION,
    state_from_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
)
from .view_json import (
    VIEW_FORMAT,
    VIEW_VERSION,
    view_from_dict,
    view_from_json,
    view_to_dict,
    view_to_json,
)

__all__ = [
    "MAX_HISTORY",
    "MAX_INT_DIGITS",
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
    "SCHEMAS",
    "STATE_FORMAT",
    "STATE_VERSION",
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "load_position",
    "load_query",
    "loads",
    "position_from_dict",
    "position_from_json",
    "position_to_dict",
    "position_to_json",
    "query_from_dict",
    "query_from_json",
    "schema",
    "state_from_dict",
    "state_from_json",
    "state_to_dict",
    "state_to_json",
    "view_from_dict",
    "view_from_json",
    "view_to_dict",
    "view_to_json",
]
