"""Reading a file safely: a regular file, of bounded size, without ever hanging.

Every entry point of the library that reads a file (:func:`~pastiche_core.data.catalogue.load_catalogue`,
:func:`~pastiche_core.io.position_json.load_query`, :func:`~pastiche_core.io.position_json.load_position`,
:meth:`GameRecord.load <pastiche_core.io.record.GameRecord.load>` and the command
line's ``--catalogue``) reads through :func:`read_file`. It refuses anything but a
regular file (a folder, a device such as ``/dev/zero`` or ``/dev/urandom``, a
named pipe, a socket) before reading a byte, opens without blocking so that a
pipe swapped in at the last moment cannot hang the reader, and reads at most
:data:`MAX_FILE_BYTES` (plus one byte, to tell a larger file). Each failure is a
:class:`~pastiche_core.data.errors.PasticheError` naming the file and the reason, and
never quoting what the file holds.

>>> read_file("no/such/file.json")
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidStateError: file 'no/such/file.json': no such file
>>> read_file("/dev/urandom", what="position file")
Traceback (most recent call last):
...
pastiche_core.data.errors.InvalidStateError: position file '/dev/urandom': not a regular file (a character device)
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from collections.abc import Callable

from .errors import InvalidStateError, PasticheError
from .limits import MAX_JSON_BYTES

__all__ = ["MAX_FILE_BYTES", "read_file", "read_text"]

MAX_FILE_BYTES = MAX_JSON_BYTES
"""The largest file read, in bytes: 1 MiB, the JSON documents' own cap
(:data:`~pastiche_core.data.limits.MAX_JSON_BYTES`)."""

ErrorFactory = Callable[[str], PasticheError]

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)
_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def read_file(
    path: str | os.PathLike[str],
    *,
    what: str = "file",
    error: ErrorFactory = InvalidStateError,
    max_bytes: int = MAX_FILE_BYTES,
    follow_symlinks: bool = True,
    label: str | None = None,
    one_name: bool = False,
) -> bytes:
    """The bytes of the regular file at ``path``, at most ``max_bytes`` of them.

    ``what`` names the file in errors (``"catalogue"``, ``"position file"``) and
    ``error`` builds the exception (a :class:`~pastiche_core.data.errors.PasticheError`
    subclass, :class:`~pastiche_core.data.errors.InvalidStateError` by default);
    ``label`` shows the file under another name than ``path``. With
    ``follow_symlinks=False`` a symbolic link as the last part of ``path`` is
    refused; with ``one_name=True`` so is a file with more than one name (a
    hard link may make a file outside a folder appear inside it).

    >>> import pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "big.json").write_bytes(b"x" * 100)
    >>> read_file(folder / "big.json", max_bytes=200)[:3]
    b'xxx'
    >>> read_file(folder / "big.json", max_bytes=50, label="big.json")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: file 'big.json': the file has 100 bytes, more than 50
    >>> shutil.rmtree(folder)
    >>> read_file(".")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: file '.': not a regular file (a directory)
    """
    name = label if label is not None else _name(path)

    def fail(reason: str) -> PasticheError:
        return error(f"{what} {name!r}: {reason}")

    try:
        target = os.fspath(path)
    except TypeError:
        raise fail("expected a file path") from None
    if (isinstance(target, str) and "\0" in target) or (
        isinstance(target, bytes) and b"\0" in target
    ):
        raise fail("the file name holds a NUL character")
    try:
        info = os.stat(target, follow_symlinks=follow_symlinks)
        _check_kind(info, max_bytes, fail)
        flags = _FLAGS if follow_symlinks else _FLAGS | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(target, flags)
    except OSError as failure:
        raise fail(_reason(failure)) from None
    try:
        # The path may have been swapped between the check and the open: check again.
        opened = os.fstat(fd)
        _check_kind(opened, max_bytes, fail)
        if one_name and opened.st_nlink > 1:
            raise fail(
                f"the file has {opened.st_nlink} names (hard links); only a file with one "
                "name is read from here"
            )
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as failure:
        raise fail(_reason(failure)) from None
    finally:
        os.close(fd)
    if size > max_bytes:
        raise fail(f"the file has more than {max_bytes:,} bytes")
    return b"".join(chunks)


def read_text(
    path: str | os.PathLike[str],
    *,
    what: str = "file",
    error: ErrorFactory = InvalidStateError,
    max_bytes: int = MAX_FILE_BYTES,
    follow_symlinks: bool = True,
    label: str | None = None,
    one_name: bool = False,
) -> str:
    """The UTF-8 text of the file at ``path`` (see :func:`read_file`; a BOM is dropped).

    >>> import pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "cat.toml").write_bytes(b'name = "caf\\xc3\\xa9"')
    >>> read_text(folder / "cat.toml")
    'name = "café"'
    >>> _ = (folder / "cat.toml").write_bytes(b'name = "caf\\xe9"')
    >>> read_text(folder / "cat.toml", what="catalogue", label="cat.toml")
    Traceback (most recent call last):
    ...
    pastiche_core.data.errors.InvalidStateError: catalogue 'cat.toml': not UTF-8 text (at byte 11)
    >>> shutil.rmtree(folder)
    """
    data = read_file(
        path,
        what=what,
        error=error,
        max_bytes=max_bytes,
        follow_symlinks=follow_symlinks,
        label=label,
        one_name=one_name,
    )
    raw = data
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as failure:
        name = label if label is not None else _name(path)
        at = failure.start + (len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0)
        raise error(f"{what} {name!r}: not UTF-8 text (at byte {at})") from None


def _name(path: object) -> str:
    try:
        name = os.fspath(path)  # type: ignore[call-overload]
    except TypeError:
        return repr(path)
    text = name if isinstance(name, str) else os.fsdecode(name)
    return text if len(text) <= 200 else f"{text[:200]}..."


def _check_kind(info: os.stat_result, max_bytes: int, fail: Callable[[str], PasticheError]) -> None:
    mode = info.st_mode
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        raise fail(f"not a regular file ({kind})")
    if info.st_size > max_bytes:
        raise fail(f"the file has {info.st_size:,} bytes, more than {max_bytes:,}")


def _reason(failure: OSError) -> str:
    if isinstance(failure, FileNotFoundError):
        return "no such file"
    if isinstance(failure, NotADirectoryError):
        return "no such file (a part of the path is not a directory)"
    if isinstance(failure, PermissionError):
        return "permission denied"
    if failure.errno == errno.ELOOP:
        return "a symbolic link where none is allowed, or too many of them"
    return failure.strerror or type(failure).__name__
