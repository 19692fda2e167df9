"""A real PostgreSQL server for the tests: Debian's, started in a temporary folder.

``postgres_cluster`` (session-scoped) runs ``initdb`` and ``pg_ctl`` from the
installed PostgreSQL (``pg_config --bindir``, else ``/usr/lib/postgresql/*/bin``)
in a folder of its own: it listens on 127.0.0.1 only, on a free port, with its
unix socket in that folder and trust authentication (a throwaway server that
nothing else reaches). initdb refuses to run as root, so as root the cluster
runs as the ``postgres`` user (created, without a home, if there is none).
``postgres_url`` gives each test a fresh database, as a ``postgresql://`` URL.

Without PostgreSQL (or psycopg, which the store needs) the tests that use it
are skipped, except in CI (``CI`` set), where a missing PostgreSQL is a failure.
Every wait is bounded: a server that has not started within 30 seconds fails
the test with the end of PostgreSQL's log.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

START_SECONDS = 30
"""How long the server may take to start (or stop) before the test fails."""
SUPERUSER = "postgres"
"""The database superuser that initdb creates (trusted on 127.0.0.1)."""
_RUNNER = "postgres"
"""The system user that runs the server when the tests run as root."""
_names = itertools.count()


def _missing(reason: str) -> None:
    """Skip, or in CI fail: CI installs PostgreSQL, so a missing one there is a real error."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI installs it: see .ci/run)", pytrace=False)
    pytest.skip(reason)


def find_bindir() -> Path | None:
    """The folder of the installed PostgreSQL's server programs (``initdb``, ``pg_ctl``)."""
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        try:
            found = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            )
            candidates.append(found.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    # Debian keeps them out of PATH, one folder per major version: the newest first.
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    candidates += sorted(versions, key=lambda path: _version(path), reverse=True)
    for candidate in candidates:
        folder = Path(candidate)
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _version(path: str) -> tuple[int, ...]:
    part = Path(path).parent.name
    return tuple(int(piece) for piece in part.split(".") if piece.isdigit())


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresCluster:
    """A PostgreSQL server in ``folder``, listening on 127.0.0.1:``port``."""

    def __init__(self, bindir: Path, folder: Path) -> None:
        self.bindir = bindir
        self.folder = folder
        self.data = folder / "data"
        self.log = folder / "postgres.log"
        self.port = _free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            _ensure_user(_RUNNER)
            self.as_user = ["runuser", "-u", _RUNNER, "--"]
            record = pwd.getpwnam(_RUNNER)
            os.chown(folder, record.pw_uid, record.pw_gid)
        folder.chmod(0o755)  # the runner writes here; the tests read the log

    def _run(self, *command: str, timeout: float = START_SECONDS + 10) -> None:
        try:
            subprocess.run(
                [*self.as_user, *command],
                capture_output=True,
                text=True,
                timeout=timeout,
                check=True,
                cwd=self.folder,
            )
        except subprocess.CalledProcessError as error:
            raise AssertionError(
                f"{Path(command[0]).name} failed ({error.returncode}): "
                f"{error.stderr.strip()[-2000:]}\n{self.log_tail()}"
            ) from None
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"{Path(command[0]).name} did not finish in {timeout:g} s\n{self.log_tail()}"
            ) from None

    def log_tail(self, lines: int = 30) -> str:
        """The end of PostgreSQL's log, for a failure's message."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return "(no PostgreSQL log)"
        return "PostgreSQL's log ends:\n" + "\n".join(text.splitlines()[-lines:])

    def init(self) -> None:
        """Create the cluster: UTF-8, trust authentication, no fsync (a throwaway server)."""
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )

    def start(self) -> None:
        """Start the server and wait (at most ``START_SECONDS``) until it accepts connections."""
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
            "-c fsync=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            str(START_SECONDS),
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: its sessions are ended; ``immediate``: as a crash)."""
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-m",
            mode,
            "-w",
            "-t",
            str(START_SECONDS),
            "stop",
        )

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run one SQL statement with ``psql`` over TCP; its output (unaligned, tuples only)."""
        psql = self.bindir / "psql"
        command = [
            str(psql if psql.is_file() else shutil.which("psql") or "psql"),
            "-X",
            "-q",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            SUPERUSER,
            "-d",
            database,
            "-c",
            statement,
        ]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=True)
        except subprocess.CalledProcessError as error:
            raise AssertionError(f"psql failed: {error.stderr.strip()[-2000:]}") from None
        return done.stdout

    def url(self, database: str) -> str:
        """The ``postgresql://`` URL of ``database`` on this server."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self, prefix: str = "pastiche") -> str:
        """A fresh, empty database; its URL."""
        name = f"{prefix}_{os.getpid()}_{next(_names)}"
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _ensure_user(name: str) -> None:
    try:
        pwd.getpwnam(name)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
            capture_output=True,
            timeout=30,
            check=True,
        )


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A PostgreSQL server for the whole test session, stopped and removed at its end."""
    bindir = find_bindir()
    if bindir is None:
        _missing("PostgreSQL is not installed (Debian's postgresql package)")
    assert bindir is not None
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        _missing("running as root needs runuser to start PostgreSQL as another user")
    folder = Path(tempfile.mkdtemp(prefix="pastiche-pg-"))
    cluster = PostgresCluster(bindir, folder)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        with contextlib.suppress(AssertionError):  # never started, or stopped by a failed test
            cluster.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> str:
    """A fresh database on the session's PostgreSQL server, as a ``postgresql://`` URL."""
    if importlib.util.find_spec("psycopg") is None:
        _missing("psycopg is not installed (the postgres extra)")
    return postgres_cluster.new_database()
