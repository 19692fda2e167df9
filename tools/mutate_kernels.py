"""Mutation testing of the compiled kernels: does every change of the C that changes an answer fail a test?

Each *mutant* is the C of ``src/pastiche_core/engine/csrc/`` with one small change, of the
kinds a slip of the pen makes:

* ``delete``: an increment or decrement statement removed (``x++;``, ``x += y;``, ``x -= 1;``);
* ``flip``: a comparison turned (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``);
* ``shift``: a small integer literal moved by one (``13`` to ``12`` and ``14``).

For each mutant the script builds the extension in a scratch copy of the package
(with the machine's C compiler, as ``.ci/sanitize`` does) and runs the kernel
tests (``pytest -m kernels``) against it. A mutant is *killed* when a test fails,
the tests crash or time out; it *survives* when every test passes; it is
*stillborn* when it does not compile (not counted). The kill rate is killed over
killed plus survived. A survivor either changes no answer (an *equivalent*
mutant, e.g. a bound of a pruning test that only costs time) or shows a gap in
the tests: read each one.

Run from the repository root::

    python tools/mutate_kernels.py                   # every mutant of every kernel file
    python tools/mutate_kernels.py --sample 60 --seed 1   # 60 mutants drawn at random
    python tools/mutate_kernels.py --list            # the mutants, without running them
    python tools/mutate_kernels.py --files csrc/counting.c --jobs 2 --json out.json
    python tools/mutate_kernels.py --only counting.c:198 masks.c:213:shift   # chosen ones
    python tools/mutate_kernels.py --only "counting.c:57 shift: return -1; -> return -2;"
    python tools/mutate_kernels.py --only counting.c:198 --keep scratch   # built, not tested

A full run takes a while (each mutant is a build and a test run); ``--sample``
gives an estimate. Every mutant is named by its file, line and change, so a
survivor can be run again on its own: ``--only`` takes ``file:line``,
``file:line:kind`` (``delete``, ``flip`` or ``shift``) or a mutant's whole name as
printed, and runs only the mutants it matches (from any kernel file, whatever
``--files`` says). With ``--keep DIR`` the one mutant chosen is built into
``DIR/pastiche_core`` and left there to be examined by hand
(``PYTHONPATH=DIR PASTICHE_REQUIRE_SPEEDUPS=1 python ...``), without a test run.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "pastiche_core"
CSRC = PACKAGE / "engine" / "csrc"
MODULE_SOURCES = (
    "module.c",
    "counting.c",
    "masks.c",
    "observe.c",
    "playouts.c",
    "game.c",
    "episode.c",
)
"""The sources of ``pastiche_core.engine._speedups`` (as ``setup.py`` lists them)."""
DEFAULT_FILES = (
    "counting.c",
    "masks.c",
    "observe.c",
    "playouts.c",
    "game.c",
    "episode.c",
    "feasibility.h",
)
"""The files mutated by default: every kernel's C and the cost rule's twin."""

_COMPARISON = re.compile(r"(?<![<>=!&|-])(<=|>=|==|!=|<(?![<=])|>(?![>=]))(?!=)")
_FLIP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
_INCREMENT = re.compile(
    r"^(\s*)([A-Za-z_][\w\[\]\.\->]*\s*(\+\+|--|\+=[^;]+|-=[^;]+)|(\+\+|--)[A-Za-z_][\w\[\]\.\->]*);\s*$"
)
_LITERAL = re.compile(r"(?<![\w.])(\d{1,2})(?![\w.])")


@dataclass(frozen=True)
class Mutant:
    """One change of one line of one file."""

    file: str
    line: int
    kind: str
    before: str
    after: str

    @property
    def name(self) -> str:
        """``file:line kind: before -> after``, shortened."""
        return f"{self.file}:{self.line} {self.kind}: {self.before.strip()} -> {self.after.strip()}"


def _code_lines(text: str) -> list[tuple[int, str]]:
    """The lines of C code (1-based) outside comments, preprocessor lines and strings."""
    found = []
    in_comment = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if in_comment:
            if "*/" in line:
                in_comment = False
            continue
        if stripped.startswith("/*") and "*/" not in stripped:
            in_comment = True
            continue
        if stripped.startswith(("#", "/*", "//", "*")) or not stripped:
            continue
        found.append((number, line))
    return found


def _masked(line: str) -> str:
    """``line`` with strings, characters and comments blanked (same length)."""
    out = re.sub(r'"(\\.|[^"\\])*"', lambda m: " " * len(m.group(0)), line)
    out = re.sub(r"'(\\.|[^'\\])*'", lambda m: " " * len(m.group(0)), out)
    out = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), out)
    return re.sub(r"//.*$", lambda m: " " * len(m.group(0)), out)


def mutants_of(path: Path) -> list[Mutant]:
    """Every mutant of one source file, in line order."""
    text = path.read_text()
    found: list[Mutant] = []
    for number, line in _code_lines(text):
        code = _masked(line)
        if "#include" in code or "PyMethodDef" in code or "PyDoc_STRVAR" in code:
            continue
        if _INCREMENT.match(code):
            indent = line[: len(line) - len(line.lstrip())]
            found.append(Mutant(path.name, number, "delete", line, indent + ";"))
        for match in _COMPARISON.finditer(code):
            operator = match.group(1)
            start, end = match.span(1)
            if line[start:end] != operator:
                continue
            after = line[:start] + _FLIP[operator] + line[end:]
            found.append(Mutant(path.name, number, "flip", line, after))
        for match in _LITERAL.finditer(code):
            start, end = match.span(1)
            value = int(match.group(1))
            if (
                "[" in code[:start]
                and "]" in code[end:]
                and code.rfind("[", 0, start) > code.rfind("]", 0, start)
            ):
                continue  # an array's size or index: a crash, not a wrong answer
            for shifted in (value - 1, value + 1):
                if shifted >= 0:
                    after = line[:start] + str(shifted) + line[end:]
                    found.append(Mutant(path.name, number, "shift", line, after))
    return found


@dataclass
class Outcome:
    """What one mutant did: killed, survived, stillborn or error, and how long it took."""

    mutant: Mutant
    status: str
    seconds: float
    detail: str = ""


def _flags(package: Path) -> list[str]:
    include = sysconfig.get_paths()["include"]
    return ["-O1", "-fPIC", "-w", f"-I{include}", f"-I{package / 'engine' / 'csrc'}"]


def _objects(package: Path, compiler: str, into: Path) -> subprocess.CompletedProcess[str] | None:
    """Compile every source of the module into ``into`` (one object each); None when all built."""
    into.mkdir(parents=True, exist_ok=True)
    for name in MODULE_SOURCES:
        done = subprocess.run(
            [
                compiler,
                *_flags(package),
                "-c",
                str(package / "engine" / "csrc" / name),
                "-o",
                str(into / f"{name}.o"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            return done
    return None


def _build(
    package: Path, compiler: str, cached: Path, changed: str
) -> subprocess.CompletedProcess[str]:
    """Link the extension into ``package``: ``changed`` compiled anew, the rest from ``cached``.

    A changed header is included by every source: then all are compiled anew.
    """
    objects = package / "objects"
    objects.mkdir()
    fresh = MODULE_SOURCES if changed.endswith(".h") else (changed,)
    for name in MODULE_SOURCES:
        target = objects / f"{name}.o"
        if name in fresh:
            done = subprocess.run(
                [
                    compiler,
                    *_flags(package),
                    "-c",
                    str(package / "engine" / "csrc" / name),
                    "-o",
                    str(target),
                ],
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            if done.returncode != 0:
                return done
        else:
            shutil.copy(cached / f"{name}.o", target)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return subprocess.run(
        [
            compiler,
            "-shared",
            *(str(objects / f"{n}.o") for n in MODULE_SOURCES),
            "-lm",
            "-o",
            str(package / "engine" / f"_speedups{suffix}"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _run_tests(work: Path, tests: list[str], timeout: float) -> tuple[str, str]:
    env = dict(os.environ)
    env.pop("PASTICHE_PURE_PYTHON", None)
    env.update(
        PYTHONPATH=str(work),
        PASTICHE_REQUIRE_SPEEDUPS="1",
        HYPOTHESIS_PROFILE=env.get("HYPOTHESIS_PROFILE", "dev"),
    )
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-n",
        "0",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "--rootdir",
        str(ROOT),
        *tests,
    ]
    try:
        done = subprocess.run(
            command,
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "killed", "timed out"
    if done.returncode == 0:
        return "survived", ""
    if done.returncode == 5:
        return "error", "no test ran"
    last = [line for line in done.stdout.splitlines() if line.strip()][-1:] or [""]
    return "killed", last[0][:200]


def _mutated(mutant: Mutant, work: Path) -> Path:
    """A copy of the package in ``work`` with ``mutant``'s line changed; returns the package."""
    package = work / "pastiche_core"
    shutil.copytree(
        PACKAGE, package, ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info")
    )
    target = package / "engine" / "csrc" / mutant.file
    lines = target.read_text().splitlines(keepends=True)
    ending = "\n" if lines[mutant.line - 1].endswith("\n") else ""
    lines[mutant.line - 1] = mutant.after + ending
    target.write_text("".join(lines))
    return package


def _check(
    mutant: Mutant, tests: list[str], compiler: str, timeout: float, cached: Path
) -> Outcome:
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mutant-") as scratch:
        work = Path(scratch)
        package = _mutated(mutant, work)
        built = _build(package, compiler, cached, mutant.file)
        if built.returncode != 0:
            return Outcome(mutant, "stillborn", time.monotonic() - start, built.stderr[-200:])
        status, detail = _run_tests(work, tests, timeout)
        return Outcome(mutant, status, time.monotonic() - start, detail)


def _keep(mutant: Mutant, into: Path, compiler: str) -> int:
    """Build ``mutant`` into ``into/pastiche_core`` and leave it there (no test run)."""
    if (into / "pastiche_core").exists():
        raise SystemExit(f"mutate: {into / 'pastiche_core'} exists already")
    into.mkdir(parents=True, exist_ok=True)
    package = _mutated(mutant, into)
    with tempfile.TemporaryDirectory(prefix="mutant-objects-") as objects:
        failed = _objects(package, compiler, Path(objects))
        built = failed or _build(package, compiler, Path(objects), "")
    shutil.rmtree(package / "objects", ignore_errors=True)
    if built.returncode != 0:
        print(f"mutate: {mutant.name} does not build:\n{built.stderr[-2000:]}")
        return 1
    print(f"mutate: {mutant.name} built into {package}")
    print(f"mutate: examine it with PYTHONPATH={into} PASTICHE_REQUIRE_SPEEDUPS=1 python ...")
    return 0


def _selected(every: list[Mutant], specs: list[str]) -> list[Mutant]:
    """The mutants ``specs`` name: ``file:line``, ``file:line:kind`` or a whole name."""
    chosen: list[Mutant] = []
    for spec in specs:
        named = [m for m in every if m.name == spec.strip()]
        if not named:
            parts = spec.strip().split(":")
            if len(parts) not in (2, 3) or not parts[1].isdigit():
                raise SystemExit(f"mutate: --only wants file:line[:kind], not {spec!r}")
            file, line = Path(parts[0]).name, int(parts[1])
            kind = parts[2] if len(parts) == 3 else None
            if kind is not None and kind not in ("delete", "flip", "shift"):
                raise SystemExit(f"mutate: no mutant kind {kind!r} (delete, flip or shift)")
            named = [
                m
                for m in every
                if m.file == file and m.line == line and (kind is None or m.kind == kind)
            ]
        if not named:
            raise SystemExit(f"mutate: no mutant matches {spec!r}")
        chosen.extend(m for m in named if m not in chosen)
    return chosen


def _baseline(tests: list[str], compiler: str, timeout: float, cached: Path) -> None:
    """The unmutated C must build and pass: else no mutant's result means anything.

    Its objects are kept in ``cached``: a mutant compiles only the file it changes.
    """
    with tempfile.TemporaryDirectory(prefix="mutant-base-") as scratch:
        work = Path(scratch)
        package = work / "pastiche_core"
        shutil.copytree(
            PACKAGE, package, ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info")
        )
        failed = _objects(package, compiler, cached)
        if failed is not None:
            raise SystemExit(f"mutate: the unmutated C does not build:\n{failed.stderr}")
        built = _build(package, compiler, cached, "")
        if built.returncode != 0:
            raise SystemExit(f"mutate: the unmutated C does not link:\n{built.stderr}")
        status, detail = _run_tests(work, tests, timeout)
        if status != "survived":
            raise SystemExit(f"mutate: the kernel tests fail on the unmutated C ({detail})")


def main(argv: list[str] | None = None) -> int:
    """Run the mutants and print the kill rate; see the module docstring."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--files", nargs="+", default=list(DEFAULT_FILES), help="csrc files")
    parser.add_argument("--sample", type=int, default=0, help="run this many, drawn at random")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants at once (default 2)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per test run")
    parser.add_argument("--tests", default="-m kernels", help="pytest selection")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--json", type=Path, help="write every outcome to this file")
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="MUTANT",
        help="run only these: file:line, file:line:kind or a mutant's name as printed",
    )
    parser.add_argument(
        "--keep", type=Path, metavar="DIR", help="build the one --only mutant into DIR and stop"
    )
    args = parser.parse_args(argv)
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        raise SystemExit(f"mutate: no C compiler ({compiler!r})")
    files = list(args.files)
    if args.only:
        files += [spec.split(":")[0] for spec in args.only]
    every: list[Mutant] = []
    for name in dict.fromkeys(Path(name).name for name in files):
        path = CSRC / name
        if not path.exists():
            raise SystemExit(f"mutate: no such kernel file {path}")
        every.extend(mutants_of(path))
    chosen = every
    if args.only:
        chosen = _selected(every, args.only)
    elif args.sample and args.sample < len(every):
        chosen = sorted(
            random.Random(args.seed).sample(every, args.sample), key=lambda m: (m.file, m.line)
        )
    if args.list:
        for mutant in chosen:
            print(mutant.name)
        print(f"{len(chosen)} of {len(every)} mutants")
        return 0
    if args.keep is not None:
        if len(chosen) != 1:
            raise SystemExit(f"mutate: --keep builds one mutant; --only chose {len(chosen)}")
        return _keep(chosen[0], args.keep, compiler)
    tests = args.tests.split()
    if not any(Path(arg).exists() for arg in tests):  # the selection runs over the suite
        tests.append(str(ROOT / "tests"))
    if not any(not item.startswith("-") for item in tests):
        tests.append(str(ROOT / "tests"))
    print(f"mutate: checking the unmutated C with pytest {' '.join(tests)}", flush=True)
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="mutant-objects-") as objects:
        cached = Path(objects)
        _baseline(tests, compiler, args.timeout, cached)
        print(f"mutate: {len(chosen)} of {len(every)} mutants, {args.jobs} at a time", flush=True)
        _run_all(chosen, tests, compiler, args, cached, outcomes)
    _report(outcomes)
    if args.json:
        args.json.write_text(
            json.dumps([asdict(o) | {"mutant": asdict(o.mutant)} for o in outcomes], indent=1)
        )
    return 0


def _run_all(
    chosen: list[Mutant],
    tests: list[str],
    compiler: str,
    args: argparse.Namespace,
    cached: Path,
    outcomes: list[Outcome],
) -> None:
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(_check, m, tests, compiler, args.timeout, cached) for m in chosen]
        for future in concurrent.futures.as_completed(futures):
            outcome = future.result()
            outcomes.append(outcome)
            print(f"{outcome.status:9} {outcome.seconds:6.1f}s  {outcome.mutant.name}", flush=True)


def _report(outcomes: list[Outcome]) -> None:
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for outcome in outcomes:
        key = (outcome.mutant.file, outcome.mutant.kind)
        counts.setdefault(key, {}).setdefault(outcome.status, 0)
        counts[key][outcome.status] += 1
    print()
    print(f"{'file':16} {'kind':7} {'killed':>7} {'survived':>9} {'stillborn':>10} {'rate':>7}")
    total_killed = total_survived = 0
    for (file, kind), by in sorted(counts.items()):
        killed, survived = by.get("killed", 0), by.get("survived", 0)
        total_killed += killed
        total_survived += survived
        rate = f"{killed / (killed + survived):.1%}" if killed + survived else "-"
        print(
            f"{file:16} {kind:7} {killed:>7} {survived:>9} {by.get('stillborn', 0):>10} {rate:>7}"
        )
    counted = total_killed + total_survived
    rate = f"{total_killed / counted:.1%}" if counted else "-"
    print(f"{'all':24} {total_killed:>7} {total_survived:>9} {'':>10} {rate:>7}")
    survivors = [o for o in outcomes if o.status == "survived"]
    if survivors:
        print("\nsurvivors (equivalent, or a gap in the tests):")
        for outcome in sorted(survivors, key=lambda o: (o.mutant.file, o.mutant.line)):
            print(f"  {outcome.mutant.name}")


if __name__ == "__main__":
    sys.exit(main())
