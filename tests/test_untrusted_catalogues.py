"""Catalogues are data, never code (R3): hostile factories through every loader.

Before, an entry ``{"kind": "custom", "factory": "module:callable"}`` imported the
module and called the callable, so a stranger's position, state or record could
run ``os:system``. Each hostile factory below is fed, in every entry form that
could smuggle it in, through every loader that accepts a catalogue. Each load
must fail with a clean :class:`~pastiche_core.data.errors.PasticheError`, having
called none of the targets (they are replaced by recorders while the loader
runs) and imported no module at all.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import MINI

from pastiche_core import (
    Catalogue,
    Game,
    GameRecord,
    InvalidCatalogueError,
    InvalidStateError,
    PasticheError,
    load_catalogue,
    load_position,
    position_from_json,
    state_from_json,
    state_to_dict,
)

HOSTILE_FACTORIES = [
    "os:system",
    "os:abort",
    "os:_exit",
    "os:remove",
    "os:execv",
    "sys:exit",
    "builtins:eval",
    "builtins:exec",
    "builtins:__import__",
    "builtins:open",
    "subprocess:call",
    "subprocess:run",
    "subprocess:Popen",
    "importlib:import_module",
    "shutil:rmtree",
    "webbrowser:open",
    "antigravity:geohash",
    "this:s",
    "pty:spawn",
    "code:interact",
    "os.path:join",
    "pastiche_core.data.patterns:Straight",  # even a harmless pattern class is not named by data
    "custom_patterns:AllOdd",
]
"""``module:callable`` paths a stranger might put in a catalogue."""

# Replaced by recorders while a loader runs: a call to any of them is a failure.
TARGETS: list[tuple[Any, str]] = [
    (os, "system"),
    (os, "abort"),
    (os, "_exit"),
    (os, "remove"),
    (os, "execv"),
    (sys, "exit"),
    (builtins, "eval"),
    (builtins, "exec"),
    (builtins, "open"),
    (subprocess, "call"),
    (subprocess, "run"),
    (subprocess, "Popen"),
    (importlib, "import_module"),
    (shutil, "rmtree"),
]
NEVER_LOADED = ("antigravity", "this", "webbrowser", "pty")

# The standard library loads a codec on its first use; load it now, so that the
# modules a loader imports (none) are not confused with it.
"x".encode("utf-8-sig").decode("utf-8-sig")


def hostile_entries(factory: str) -> list[dict[str, Any]]:
    """Every entry form that could carry ``factory`` into a catalogue."""
    common = {"id": "evil", "name": "Evil", "points": 1, "copies": 1}
    return [
        {**common, "kind": "custom", "factory": factory, "params": {"command": "touch pwned"}},
        {**common, "kind": "custom", "factory": factory},
        {**common, "kind": factory},
        {**common, "kind": factory, "params": {"command": "touch pwned"}},
        {**common, "kind": "straight", "length": 3, "factory": factory},
        {**common, "kind": "all-odd", "params": {"count": 3}, "factory": factory},
        {**common, "kind": "all-odd", "params": {"count": factory}},
    ]


def catalogue_data(entry: dict[str, Any]) -> dict[str, Any]:
    flag = {"id": "end-flag", "name": "End Flag", "kind": "end-flag", "points": 1, "copies": 1}
    return {"name": "hostile", "novels": [entry, flag]}


def toml_value(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string of ASCII text is a TOML basic string
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


def catalogue_toml(data: dict[str, Any]) -> str:
    lines = [f"name = {toml_value(data['name'])}"]
    for entry in data["novels"]:
        lines.append("[[novels]]")
        lines.extend(f'"{key}" = {toml_value(value)}' for key, value in entry.items())
    return "\n".join(lines) + "\n"


def state_json(catalogue: Any) -> str:
    data = state_to_dict(Game(3, 5, MINI))
    data["catalogue"] = catalogue
    return json.dumps(data)


def record_json(catalogue: Any) -> str:
    data = GameRecord(3, 5, MINI).to_dict()
    data["catalogue"] = catalogue
    return json.dumps(data)


def position_json(catalogue: Any) -> str:
    return json.dumps({"player": 0, "hand": ["SCI7"], "masterpieces": [], "catalogue": catalogue})


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


Loader = Callable[[dict[str, Any], Path], object]

LOADERS: dict[str, Loader] = {
    "Catalogue.from_dict": lambda data, _: Catalogue.from_dict(data),
    "Catalogue.from_toml": lambda data, _: Catalogue.from_toml(catalogue_toml(data)),
    "load_catalogue": lambda data, tmp: load_catalogue(
        write(tmp, "cat.toml", catalogue_toml(data))
    ),
    "position_from_json": lambda data, _: position_from_json(position_json(data)),
    "load_position (embedded)": lambda data, tmp: load_position(
        write(tmp, "p.json", position_json(data))
    ),
    "load_position (file next to it)": lambda data, tmp: (
        write(tmp, "cat.toml", catalogue_toml(data)),
        load_position(write(tmp, "p.json", position_json("cat.toml"))),
    ),
    "state_from_json": lambda data, _: state_from_json(state_json(data)),
    "GameRecord.from_json": lambda data, _: GameRecord.from_json(record_json(data)),
    "GameRecord.load": lambda data, tmp: GameRecord.load(write(tmp, "r.json", record_json(data))),
}


@contextlib.contextmanager
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Replace every target by a recorder for the duration of the block."""
    calls: list[str] = []

    def recorder(name: str) -> Callable[..., None]:
        def record(*args: object, **kwargs: object) -> None:
            calls.append(name)

        return record

    with monkeypatch.context() as patch:
        for owner, attribute in TARGETS:
            patch.setattr(owner, attribute, recorder(f"{owner.__name__}.{attribute}"))
        yield calls


def test_the_canary_modules_were_never_loaded() -> None:
    # Precondition of the checks below: these would only appear if a loader imported them.
    assert not [name for name in NEVER_LOADED if name in sys.modules]


@pytest.mark.parametrize("loader", list(LOADERS), ids=list(LOADERS))
@pytest.mark.parametrize("factory", HOSTILE_FACTORIES)
def test_no_loader_imports_or_calls_a_factory_named_by_data(
    loader: str, factory: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for form, entry in enumerate(hostile_entries(factory)):
        before = set(sys.modules)
        with recording(monkeypatch) as calls, pytest.raises(PasticheError) as caught:
            LOADERS[loader](catalogue_data(entry), tmp_path)
        assert calls == [], f"form {form}: called {calls}"
        assert set(sys.modules) - before == set(), f"form {form}: imported a module"
        message = str(caught.value)
        assert isinstance(caught.value, InvalidCatalogueError | InvalidStateError)
        if "file next to it" in loader:  # a named file's details are never quoted
            assert "'cat.toml': not a valid catalogue (R3)" in message, message
        else:
            assert "novels[0] ('evil')" in message, message
        if "position" in loader or "state" in loader or "Record" in loader:
            assert message.startswith("$.catalogue: "), message
        assert "Traceback" not in message
    assert not (tmp_path / "pwned").exists()
    assert not Path("pwned").exists()


@pytest.mark.parametrize("factory", HOSTILE_FACTORIES[:3])
def test_the_refusal_points_to_register_pattern(factory: str) -> None:
    entry = hostile_entries(factory)[0]
    with pytest.raises(InvalidCatalogueError) as caught:
        Catalogue.from_dict(catalogue_data(entry))
    assert str(caught.value) == (
        "novels[0] ('evil'): catalogue data never names code, so no 'factory' and no kind "
        "'custom'; register the pattern in Python with register_pattern(kind, factory) and "
        "name that kind here, its parameters under 'params' (R3)"
    )


def test_a_registered_kind_still_loads_through_every_loader(tmp_path: Path) -> None:
    # The same loaders accept the entry once it names a registered kind with plain params.
    entry = {"id": "odd", "name": "Odd", "kind": "all-odd", "params": {"count": 3}}
    data = catalogue_data({**entry, "points": 1, "copies": 1})
    expected = Catalogue.from_dict(data)
    for name, loader in LOADERS.items():
        if "state" in name:  # a state's supply must match its catalogue: write a real one
            game = Game(3, 5, expected)
            assert state_from_json(json.dumps(state_to_dict(game))) == game
            continue
        try:
            loaded = loader(data, tmp_path)
        except PasticheError as error:
            pytest.fail(f"{name} refused a registered kind: {error}")
        found: Any = loaded[-1] if isinstance(loaded, tuple) else loaded
        catalogue = found if isinstance(found, Catalogue) else found.catalogue
        assert catalogue == expected, name
