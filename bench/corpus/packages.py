"""The corpus's pinned npm packages (issue #37): the versions each experiment's CDN tags resolve to, listed in
corpus/manifest.toml (`packages = ["name@version", …]`), kept once, whichever experiments share them, as the tarballs
`npm pack` makes in corpus/packages/, with corpus/packages/package-lock.json holding each one's integrity as the
registry gave it.

The bench (`make corpus`) copies an experiment's tarballs and that lock into the study folder's packages/, the folder
sync reads before any registry and checks against the lock beside it (server/tasks/jspsych/experiment.py, source
"offline"), so a run needs no network and resolves the same versions every time. Fetching them is the one step that
does (`make corpus-packages` runs this module):

    python -m bench.corpus.packages   # npm pack each listed version not here yet, rewrite the lock, drop the unlisted
    CORPUS_DIR=/some/folder           # another corpus: experiment folders and a manifest.toml of the same shape
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from server.config import PROJECT_ROOT
from server.tasks.jspsych.npm import integrity_matches

CORPUS = Path(os.environ.get("CORPUS_DIR", PROJECT_ROOT / "corpus"))
LOCK = "package-lock.json"


def pinned(experiment: dict) -> list[tuple[str, str]]:
    """(name, version) of each package the experiment's manifest entry pins."""
    return [tuple(spec.rsplit("@", 1)) for spec in experiment.get("packages", [])]


def tarball_name(name: str, version: str) -> str:
    """The file name `npm pack` gives a package's tarball: @scope/name → scope-name-version.tgz."""
    return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


def carry(experiment: dict, study: Path) -> None:
    """The experiment's pinned tarballs and the lock that vouches for them, in the study folder's packages/."""
    wanted = pinned(experiment)
    if not wanted:
        return
    (study / "packages").mkdir()
    for name, version in wanted:
        source = CORPUS / "packages" / tarball_name(name, version)
        if not source.is_file():
            raise FileNotFoundError(f"{source} is missing: `make corpus-packages` fetches the manifest's packages")
        shutil.copyfile(source, study / "packages" / source.name)
    shutil.copyfile(CORPUS / "packages" / LOCK, study / "packages" / LOCK)


def fetch() -> None:
    """Every version the manifest pins, as a tarball in corpus/packages/ and an entry of its lock. A tarball already
    there whose bytes the lock vouches for is kept (no network); one no experiment pins any more is removed."""
    folder = CORPUS / "packages"
    folder.mkdir(exist_ok=True)
    old = json.loads((folder / LOCK).read_text())["packages"] if (folder / LOCK).is_file() else {}
    experiments = tomllib.loads((CORPUS / "manifest.toml").read_text())["experiment"]
    wanted = sorted({pin for experiment in experiments for pin in pinned(experiment)})
    entries = {}
    for name, version in wanted:
        file = folder / tarball_name(name, version)
        key = f"node_modules/{file.stem}"  # one entry per version, its "name" the package's, as npm writes an alias's
        entry = old.get(key)
        if not (entry and file.is_file() and integrity_matches(file.read_bytes(), entry["integrity"])):
            # npm checks the tarball against the registry's dist.integrity as it downloads it
            packed = subprocess.run(
                ["npm", "pack", f"{name}@{version}", "--json", "--pack-destination", str(folder)],
                check=True,
                capture_output=True,
                text=True,
            )
            made = json.loads(packed.stdout)[0]
            if made["filename"] != file.name or not integrity_matches(file.read_bytes(), made["integrity"]):
                sys.exit(f"npm pack {name}@{version} wrote {made['filename']}, not {file.name} with its integrity")
            entry = {
                "name": name,
                "version": version,
                "resolved": f"https://registry.npmjs.org/{name}/-/{name.split('/')[-1]}-{version}.tgz",
                "integrity": made["integrity"],
            }
            print(f"fetched {name}@{version}: {file.name}, {file.stat().st_size // 1024} KB")
        entries[key] = entry
    for stale in sorted(set(folder.glob("*.tgz")) - {folder / tarball_name(*pin) for pin in wanted}):
        stale.unlink()
        print(f"removed {stale.name}: no experiment pins it")
    lock = {"name": "studyhive-corpus", "lockfileVersion": 3, "requires": True, "packages": entries}
    (folder / LOCK).write_text(json.dumps(lock, indent=2) + "\n")


if __name__ == "__main__":
    fetch()
