"""Draw the midgame picture of the docs: ``python docs/images/make_midgame.py``.

Plays a 4-player game with a fixed seed, choosing uniformly among the legal
moves, until three novels are on the table; writes ``midgame.svg`` next to this
script and, when ``rsvg-convert`` or ``cairosvg`` is available, ``midgame.png``.
The output is the same on every run.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

from pastiche_core import Game
from pastiche_core.render import game_svg

SEED = 0
PLAYERS = 4
NOVELS = 3
HERE = Path(__file__).resolve().parent


def midgame(seed: int = SEED, players: int = PLAYERS, novels: int = NOVELS) -> Game:
    """The game after random legal play until ``novels`` novels are on the table."""
    game = Game(players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and sum(len(game.table(p)) for p in range(players)) < novels:
        legal = game.legal_moves
        game.apply(legal[rng.randrange(len(legal))])
    return game


def to_png(svg: Path, png: Path) -> bool:
    """Convert ``svg`` to ``png`` at twice the size; ``False`` if no converter is found."""
    converter = shutil.which("rsvg-convert")
    if converter is not None:
        subprocess.run([converter, "--zoom=2", "-o", str(png), str(svg)], check=True)
        return True
    try:
        import cairosvg  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return False
    cairosvg.svg2png(url=str(svg), write_to=str(png), scale=2)
    return True


def main() -> None:
    """Write the SVG, then the PNG if a converter is available."""
    svg = HERE / "midgame.svg"
    svg.write_text(game_svg(midgame()) + "\n", encoding="utf-8")
    print(f"wrote {svg.name}")
    png = HERE / "midgame.png"
    if to_png(svg, png):
        print(f"wrote {png.name}")
    else:
        print("no SVG converter (rsvg-convert or cairosvg): PNG not written")


if __name__ == "__main__":
    main()
