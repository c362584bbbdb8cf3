"""What `make run` installs on a fresh checkout: serving's packages only. PyTorch is for model training (`make models`,
`make test`); where the package index serves CUDA wheels it is gigabytes before the first study page (issue #28)."""

from __future__ import annotations

import re
import shlex
import subprocess

import pytest

from tests.conftest import ROOT

REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def packages(requirements: str, seen: set[str] | None = None) -> set[str]:
    """The package names a requirements file installs, following its `-r` includes."""
    seen = set() if seen is None else seen
    if requirements in seen:
        return set()
    seen.add(requirements)
    names = set()
    for line in (ROOT / requirements).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r"):
            names |= packages(line[2:].strip(), seen)
        elif match := REQUIREMENT.match(line):
            names.add(match.group(1).lower())
    return names


def installed_by(target: str) -> set[str]:
    """Every package the target's recipe would pip-install on a fresh checkout (`make -n -B`: print, run nothing)."""
    out = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    names: set[str] = set()
    for line in out.splitlines():
        if not re.match(r"^\S*pip\s+install\b", line.strip()):
            continue
        words = shlex.split(line)
        words = [w for w in words[words.index("install") + 1 :] if w not in ("--quiet", "--upgrade")]
        while words:
            word = words.pop(0)
            if word == "-r":
                names |= packages(words.pop(0))
            elif not word.startswith("-"):
                names.add(REQUIREMENT.match(word).group(1).lower())
    return names


@pytest.mark.skipif(subprocess.run(["which", "make"], capture_output=True).returncode, reason="no make")
def test_make_run_installs_no_torch_and_make_test_does():
    serving = installed_by("run")
    assert {"flask", "sqlalchemy", "pyarrow"} <= serving  # the parse found what `run` installs
    assert not {name for name in serving if name.startswith("torch")}, serving
    assert "torch" in installed_by("test") and "torch" in installed_by("models")
    assert not {name for name in installed_by("models") if name in ("pytest", "ruff")}
