"""An optional face imported without its extra says which package is missing and what to install."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("face", "blocked"),
    [
        ("pastiche_core.gymnasium", "gymnasium"),
        ("pastiche_core.openspiel", "pyspiel"),
        ("pastiche_core.pettingzoo", "pettingzoo"),
        ("pastiche_core.rl", "numpy"),
    ],
)
def test_a_face_without_its_extra_names_the_package_and_the_install(
    face: str, blocked: str
) -> None:
    # A module set to None in sys.modules cannot be imported: as if it were not installed.
    code = (
        "import sys\n"
        f"sys.modules[{blocked!r}] = None\n"
        "try:\n"
        f"    import {face}\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error.name, '|', error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    # The missing name is the module the face imported first: the package or one of its modules.
    name, _, message = done.stdout.strip().partition(" | ")
    assert name.split(".")[0] == blocked
    assert message == f"{face} needs {name}: install the rl extra, pip install 'pastiche-core[rl]'"
