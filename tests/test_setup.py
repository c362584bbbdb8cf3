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


def pip_installs(script: str) -> set[str]:
    """Every package the `pip install` lines of a script (a make recipe, a Dockerfile's RUN) install."""
    names: set[str] = set()
    for line in script.splitlines():
        line = re.sub(r"^RUN\s+", "", line.strip())
        if not re.match(r"^\S*pip\s+install\b", line):
            continue
        words = shlex.split(line)
        words = [w for w in words[words.index("install") + 1 :] if w not in ("--quiet", "--upgrade", "--no-cache-dir")]
        while words:
            word = words.pop(0)
            if word == "-r":
                names |= packages(words.pop(0))
            elif not word.startswith("-"):
                names.add(REQUIREMENT.match(word).group(1).lower())
    return names


def installed_by(target: str) -> set[str]:
    """Every package the target's recipe would pip-install on a fresh checkout (`make -n -B`: print, run nothing)."""
    return pip_installs(
        subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    )


@pytest.mark.skipif(subprocess.run(["which", "make"], capture_output=True).returncode, reason="no make")
def test_make_run_installs_no_torch_and_make_test_does():
    serving = installed_by("run")
    assert {"flask", "sqlalchemy", "pyarrow"} <= serving  # the parse found what `run` installs
    assert not {name for name in serving if name.startswith("torch")}, serving
    assert "torch" in installed_by("test") and "torch" in installed_by("models")
    assert not {name for name in installed_by("models") if name in ("pytest", "ruff")}


ANALYSIS_STACK = {"pandas", "scipy", "numpy", "pingouin", "matplotlib", "pillow", "pyarrow"}


@pytest.mark.skipif(subprocess.run(["which", "make"], capture_output=True).returncode, reason="no make")
def test_serving_leaves_out_the_analysis_set_and_run_test_and_the_image_add_it():
    """A worker serving participants needs requirements.txt alone (issue #40); a newcomer's `make run`, `make test`
    and the production image (`flask analyze`, the recompute process) install the analysis set beside it."""
    serving, analysis = packages("requirements.txt"), packages("requirements-analysis.txt")
    assert ANALYSIS_STACK <= analysis and not serving & analysis
    for target in ("run", "test", "setup-dev"):
        assert serving | analysis <= installed_by(target), target
    assert serving | analysis <= pip_installs((ROOT / "Dockerfile").read_text())
