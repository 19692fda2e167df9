"""Draw the pictures of the docs from the shipped examples: ``python docs/images/make_pictures.py``.

Writes next to this script:

* ``midgame.svg``: the position of ``examples/positions/midgame.json`` (the home page);
* ``game.svg``: a 4-player game (seed 0) played by uniformly random legal moves
  until three novels are on the table (the tutorial);
* ``jerome.svg``: the rulebook's example position, ``examples/positions/jerome.json``;
* ``jerome-report.html``: the publish report of that position, as Jupyter shows it.

The output is the same on every run; a test checks that the files are up to date.

The web table's pictures, ``web-table.png`` (a game under way, with a hint) and
the phone's ``web-table-phone.png``, ``web-table-outs.png`` and
``web-table-review.png``, are screenshots of a real browser: the browser tests
write them when asked, ``PASTICHE_SCREENSHOTS=docs/images PASTICHE_SLOW=1 ./run
python -m pytest -n 0 tests/server/test_service_browser.py
tests/server/test_web_table_phone.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

from pastiche_core import Game, solve
from pastiche_core.io import load_query
from pastiche_core.io.render import game_svg, options_html, position_svg

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent.parent / "examples" / "positions"


def midgame(seed: int = 0, players: int = 4, novels: int = 3) -> Game:
    """The game after random legal play until ``novels`` novels are on the table."""
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and sum(len(game.table(p)) for p in range(players)) < novels:
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    return game


def pictures() -> dict[str, str]:
    """Every picture's file name and text."""
    midgame_position, _ = load_query(EXAMPLES / "midgame.json")
    jerome, constraints = load_query(EXAMPLES / "jerome.json")
    return {
        "midgame.svg": position_svg(midgame_position) + "\n",
        "game.svg": game_svg(midgame()) + "\n",
        "jerome.svg": position_svg(jerome) + "\n",
        "jerome-report.html": options_html(solve(jerome, constraints=constraints)) + "\n",
    }


def main() -> None:
    """Write every picture."""
    for name, text in pictures().items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
