"""Link the documentation's header to the repository it was built from.

The site is built from a clone; its ``origin`` remote is the repository. This
mkdocs hook sets ``repo_url`` (the header's repository link) from that remote
unless the configuration already names one, turning an SSH address into the
repository's web address. Without a remote (a bare copy) the header has no link.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

_SCP = re.compile(r"^(?:[\w.-]+@)?(?P<host>[\w.-]+):(?P<path>[^/].*)$")


def web_address(remote: str) -> str | None:
    """The web address of a git remote, or ``None`` if it has none.

    >>> web_address("git@github.com:owner/pastiche_core.git")
    'https://github.com/owner/pastiche_core'
    >>> web_address("https://gitlab.com/owner/pastiche_core.git")
    'https://gitlab.com/owner/pastiche_core'
    >>> web_address("ssh://git@example.org/owner/repo.git")
    'https://example.org/owner/repo'
    >>> web_address("/srv/git/pastiche_core.git") is None
    True
    """
    remote = remote.strip()
    if remote.startswith(("http://", "https://")):
        address = remote
    elif remote.startswith("ssh://"):
        rest = remote[len("ssh://") :].split("@", 1)[-1]
        host, _, path = rest.partition("/")
        address = f"https://{host.split(':', 1)[0]}/{path}"
    else:
        match = _SCP.match(remote)
        if match is None or "/" in match["host"]:
            return None
        address = f"https://{match['host']}/{match['path']}"
    address = re.sub(r"\.git/?$", "", address.rstrip("/"))
    address = re.sub(r"//[^/@]*@", "//", address)  # never publish credentials
    return address


def origin_address(root: Path) -> str | None:
    """The web address of the ``origin`` remote of the clone at ``root``, if any."""
    try:
        done = subprocess.run(
            ["git", "remote", "get-url", "origin"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return web_address(done.stdout) if done.returncode == 0 and done.stdout.strip() else None


def on_config(config: Any) -> Any:
    """mkdocs hook: fill ``repo_url`` from the clone's ``origin`` remote when unset."""
    if not config.get("repo_url"):
        address = origin_address(Path(config["config_file_path"]).parent)
        if address is not None:
            config["repo_url"] = address
    return config
