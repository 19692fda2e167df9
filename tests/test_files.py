"""Files are read safely: regular files only, bounded, never hanging, never quoted (R3).

Every entry point that reads a file goes through
:func:`pastiche_core.data.files.read_file`: ``load_catalogue``, ``load_query`` /
``load_position`` (and the catalogue a position names), ``GameRecord.load``.
Each special file must be refused with a clean
:class:`~pastiche_core.data.errors.PasticheError` naming the file and the reason, at
once (an alarm fails any read that would hang), and a catalogue named by a
position is read only from inside the position's folder, its content never
quoted in an error.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest

from pastiche_core import (
    GameRecord,
    InvalidCatalogueError,
    InvalidStateError,
    PasticheError,
    load_catalogue,
    load_position,
    load_query,
    position_from_dict,
)
from pastiche_core.data.files import MAX_FILE_BYTES, read_file, read_text
from pastiche_core.io.jsontext import MAX_JSON_BYTES

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX special files")

ROOT = Path(__file__).resolve().parent.parent
SECRET = "hunter2-7d1f"
"""A value that must never appear in an error about a file that holds it."""

MINI_TOML = """name = "mini"
[[novels]]
id = "pair"
name = "A Pair"
kind = "kind"
count = 2
points = 1
copies = 3
[[novels]]
id = "end-flag"
name = "End Flag"
kind = "end-flag"
points = 1
copies = 1
"""


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """Fail a test that blocks for 10 seconds instead of letting it hang the suite."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError("a file read blocked")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(10)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def special_file(kind: str, folder: Path) -> tuple[Path, str]:
    """A file of ``kind`` and the reason it is refused for."""
    if kind == "fifo":
        path = folder / "pipe"
        os.mkfifo(path)
        return path, "not a regular file (a named pipe)"
    if kind == "dev-zero":
        return Path("/dev/zero"), "not a regular file (a character device)"
    if kind == "dev-urandom":
        return Path("/dev/urandom"), "not a regular file (a character device)"
    if kind == "directory":
        path = folder / "folder.json"
        path.mkdir()
        return path, "not a regular file (a directory)"
    if kind == "socket":
        path = folder / "sock"
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.close()
        return path, "not a regular file (a socket)"
    if kind == "too-large":
        path = folder / "large.json"
        path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
        return path, f"the file has {MAX_FILE_BYTES + 1:,} bytes, more than {MAX_FILE_BYTES:,}"
    if kind == "missing":
        return folder / "missing.json", "no such file"
    if kind == "nul":
        return Path("a\0b"), "the file name holds a NUL character"
    raise AssertionError(kind)


SPECIAL = [
    "fifo",
    "dev-zero",
    "dev-urandom",
    "directory",
    "socket",
    "too-large",
    "missing",
    "nul",
]

ENTRY_POINTS: dict[str, tuple[Callable[[Path], object], type[PasticheError], str]] = {
    "read_file": (read_file, InvalidStateError, "file"),
    "load_catalogue": (load_catalogue, InvalidCatalogueError, "catalogue"),
    "load_query": (load_query, InvalidStateError, "position file"),
    "load_position": (load_position, InvalidStateError, "position file"),
    "GameRecord.load": (GameRecord.load, InvalidStateError, "record file"),
}


@pytest.mark.parametrize("entry_point", list(ENTRY_POINTS))
@pytest.mark.parametrize("kind", SPECIAL)
def test_special_files_are_refused_at_once(entry_point: str, kind: str, tmp_path: Path) -> None:
    path, reason = special_file(kind, tmp_path)
    load, error, what = ENTRY_POINTS[entry_point]
    with pytest.raises(error) as caught:
        load(path)
    assert str(caught.value) == f"{what} {str(path)!r}: {reason}"


def test_the_cap_is_the_json_cap_and_a_file_at_the_cap_is_read(tmp_path: Path) -> None:
    assert MAX_FILE_BYTES == MAX_JSON_BYTES == 1 << 20
    path = tmp_path / "full.json"
    path.write_bytes(b" " * MAX_FILE_BYTES)
    assert len(read_file(path)) == MAX_FILE_BYTES


def test_a_file_whose_size_lies_is_still_capped(tmp_path: Path) -> None:
    # /proc files report size 0; the read itself stops one byte past the cap.
    proc = Path("/proc/self/maps")
    if not proc.exists():
        pytest.skip("no /proc")
    assert read_file(proc, max_bytes=1 << 20)
    with pytest.raises(InvalidStateError, match="the file has more than 10 bytes"):
        read_file(proc, max_bytes=10)


def test_a_symbolic_link_is_followed_unless_refused(tmp_path: Path) -> None:
    (tmp_path / "mini.toml").write_text(MINI_TOML, encoding="utf-8")
    (tmp_path / "link.toml").symlink_to(tmp_path / "mini.toml")
    assert load_catalogue(tmp_path / "link.toml").name == "mini"
    with pytest.raises(InvalidStateError, match=r"not a regular file \(a symbolic link\)"):
        read_file(tmp_path / "link.toml", follow_symlinks=False)
    (tmp_path / "zero").symlink_to("/dev/zero")
    with pytest.raises(InvalidCatalogueError, match=r"a character device"):
        load_catalogue(tmp_path / "zero")


def test_non_utf8_text_is_refused_without_quoting_it(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(f'name = "{SECRET}\xe9"'.encode("latin-1"))
    with pytest.raises(InvalidCatalogueError) as caught:
        load_catalogue(path)
    assert str(caught.value) == f"catalogue {str(path)!r}: not UTF-8 text (at byte 20)"
    path.write_bytes(b"\xef\xbb\xbf" + MINI_TOML.encode())  # a BOM is dropped
    assert load_catalogue(path).name == "mini"
    assert read_text(path).startswith("name")
    position = tmp_path / "p.json"
    position.write_bytes(b'{"player": 0, "hand": ["\xff"], "masterpieces": []}')
    with pytest.raises(InvalidStateError, match=r"^\$: not valid JSON: not UTF-8 text"):
        load_position(position)


# --- the catalogue a position names (R3) -----------------------------------------------------


def position(catalogue: object) -> dict[str, object]:
    return {"player": 0, "hand": ["SCI7"], "masterpieces": [], "catalogue": catalogue}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A position's folder, with a valid catalogue in it and a secret file beside it."""
    inside = tmp_path / "positions"
    inside.mkdir()
    (inside / "mini.toml").write_text(MINI_TOML, encoding="utf-8")
    (tmp_path / "secret.toml").write_text(f'password = "{SECRET}"\n', encoding="utf-8")
    return inside


def refused(value: object, folder: Path) -> str:
    """The message of the error a position naming ``value`` raises, read from a file."""
    file = folder / "p.json"
    file.write_text(json.dumps(position(value)), encoding="utf-8")
    with pytest.raises(InvalidStateError) as caught:
        load_position(file)
    message = str(caught.value)
    assert message.startswith("$.catalogue: "), message
    assert SECRET not in message, message
    assert "password" not in message, message
    return message


def test_a_catalogue_inside_the_folder_is_read(folder: Path) -> None:
    (folder / "cats").mkdir()
    (folder / "cats" / "mini.toml").write_text(MINI_TOML, encoding="utf-8")
    (folder / "link.toml").symlink_to(folder / "cats" / "mini.toml")
    for name in ("mini.toml", "cats/mini.toml", "./cats/mini.toml", "link.toml"):
        file = folder / "p.json"
        file.write_text(json.dumps(position(name)), encoding="utf-8")
        assert load_position(file).catalogue.name == "mini", name


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("../secret.toml", "'..' leaves the position's folder"),
        ("cats/../../secret.toml", "'..' leaves the position's folder"),
        ("..", "'..' leaves the position's folder"),
        ("/etc/passwd", "an absolute path"),
        ("//etc/passwd", "an absolute path"),
        ("/dev/zero", "an absolute path"),
        ("/dev/urandom", "an absolute path"),
        ("a\0b", "a file name never holds a NUL character"),
        ("mini.toml\0", "a file name never holds a NUL character"),
        ("x" * 1025, "a path of more than 1024 characters"),
    ],
)
def test_paths_out_of_the_folder_are_refused_before_reading(
    folder: Path, value: str, reason: str
) -> None:
    assert reason in refused(value, folder)


def test_absolute_paths_are_refused_even_inside_the_folder(folder: Path) -> None:
    assert "an absolute path" in refused(str(folder / "mini.toml"), folder)


def test_a_symbolic_link_out_of_the_folder_is_refused(folder: Path) -> None:
    (folder / "escape.toml").symlink_to(folder.parent / "secret.toml")
    (folder / "sub").symlink_to(folder.parent)
    (folder / "zero.toml").symlink_to("/dev/zero")
    (folder / "loop.toml").symlink_to(folder / "loop.toml")
    for name in ("escape.toml", "sub/secret.toml", "zero.toml"):
        assert "resolves outside the position's folder" in refused(name, folder), name
    assert refused("loop.toml", folder).endswith("'loop.toml': the path cannot be resolved")


@pytest.mark.parametrize("kind", ["fifo", "directory", "socket", "too-large"])
def test_special_files_inside_the_folder_are_refused(folder: Path, kind: str) -> None:
    path, reason = special_file(kind, folder)
    assert refused(path.name, folder) == f"$.catalogue: catalogue {path.name!r}: {reason}"


def test_a_file_that_is_not_a_catalogue_is_not_quoted(folder: Path) -> None:
    (folder / "secret.toml").write_text(f'password = "{SECRET}"\n', encoding="utf-8")
    message = refused("secret.toml", folder)
    assert message == (
        "$.catalogue: catalogue 'secret.toml': not a valid catalogue (R3); the details are not "
        "shown, since they would quote the file: check it with load_catalogue"
    )
    (folder / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    message = refused("pyproject.toml", folder)
    assert "build-system" not in message
    assert "project" not in message.split(":", 2)[2]
    (folder / "syntax.toml").write_text(f"password = {SECRET}\n", encoding="utf-8")
    assert refused("syntax.toml", folder) == (
        "$.catalogue: catalogue 'syntax.toml': catalogue TOML does not parse (at line 1, column 12)"
    )
    (folder / "latin.toml").write_bytes(f'password = "{SECRET}\xe9"'.encode("latin-1"))
    assert refused("latin.toml", folder) == (
        "$.catalogue: catalogue 'latin.toml': not UTF-8 text (at byte 24)"
    )


def test_a_path_needs_the_folder_of_a_file(folder: Path) -> None:
    # Without a file there is no folder to read from: name "default" or embed the catalogue.
    with pytest.raises(InvalidStateError, match=r"^\$\.catalogue: catalogue 'mini.toml': a "):
        position_from_dict(position("mini.toml"))
    assert position_from_dict(position("mini.toml"), base_dir=folder).catalogue.name == "mini"


def test_a_hard_link_into_the_folder_is_refused_and_shows_nothing_of_the_file_r3(
    folder: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "secret.toml"
    outside.write_text(f'name = "{SECRET}"\n[[novels]\nbroken = password\n', encoding="utf-8")
    try:
        os.link(outside, folder / "linked.toml")
    except OSError:  # pragma: no cover - a file system without hard links
        pytest.skip("no hard links here")
    message = refused("linked.toml", folder)
    assert "2 names (hard links)" in message


def test_one_name_refuses_a_file_with_two(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(MINI_TOML, encoding="utf-8")
    assert read_file(tmp_path / "a.toml", one_name=True)
    os.link(tmp_path / "a.toml", tmp_path / "b.toml")
    with pytest.raises(InvalidStateError, match="2 names"):
        read_file(tmp_path / "a.toml", one_name=True)
    assert read_file(tmp_path / "a.toml") == read_file(tmp_path / "b.toml")
