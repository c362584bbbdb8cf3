"""The npm registry as studyhive reads it: a package's packument (its versions, dist-tags and each version's tarball
and integrity) and a version's tarball, over HTTP with a time-out. The production image has no node, so this is the
whole client: no install scripts, no dependency trees (a page's script tags name every file it loads)."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from urllib.parse import quote

import requests

MIB = 1024 * 1024
# jsPsych 8's tarball is about 1 MiB; a package far beyond this is not something a page loads whole.
MAX_TARBALL_BYTES = 50 * MIB
SRI_ALGORITHMS = ("sha512", "sha384", "sha256")


class RegistryError(Exception):
    """The registry could not answer as needed (unreachable, an error status, a malformed answer)."""


class PackageNotFound(RegistryError):
    """The registry has no package of that name."""


def sri(data: bytes, algorithm: str = "sha512") -> str:
    """Subresource-integrity text of `data`, as npm's dist.integrity and a script tag's integrity attribute hold."""
    return f"{algorithm}-{base64.b64encode(hashlib.new(algorithm, data).digest()).decode()}"


def integrity_matches(data: bytes, integrity: str) -> bool:
    """Whether `data` has one of the hashes in an SRI text ("sha512-… sha384-…"; options after "?" and unknown
    algorithms ignored); False when it names none that can be checked."""
    for token in integrity.split():
        algorithm = token.partition("-")[0]
        if algorithm in SRI_ALGORITHMS and sri(data, algorithm) == token.split("?")[0]:
            return True
    return False


@dataclass
class Registry:
    """An npm registry at `url` (the NPM_REGISTRY_URL setting). Packuments are kept for the object's life, so one
    sync asks once per package."""

    url: str
    timeout: float = 30.0
    session: requests.Session = field(default_factory=requests.Session)
    _packuments: dict[str, dict] = field(default_factory=dict, repr=False)

    def packument(self, name: str) -> dict:
        if name not in self._packuments:
            # A scoped name's slash is escaped, as npm itself asks (@scope%2fname).
            address = self.url.rstrip("/") + "/" + quote(name, safe="@")
            # The abbreviated form has every version's dist; package.json fields come from the tarball itself.
            answer = self._get(address, headers={"Accept": "application/vnd.npm.install-v1+json; q=1.0, */*"})
            if answer.status_code == 404:
                raise PackageNotFound(f"the npm registry {self.url} has no package {name!r}")
            self._check(answer, f"package {name!r}")
            try:
                packument = answer.json()
            except ValueError as exc:
                raise RegistryError(f"{address} answered with something that is not JSON") from exc
            if not isinstance(packument, dict) or not isinstance(packument.get("versions"), dict):
                raise RegistryError(f"{address} answered without a list of versions")
            self._packuments[name] = packument
        return self._packuments[name]

    def tarball(self, address: str) -> bytes:
        """A tarball's bytes, refused beyond MAX_TARBALL_BYTES."""
        answer = self._get(address, stream=True)
        with answer:
            self._check(answer, address)
            chunks, size = [], 0
            for chunk in answer.iter_content(64 * 1024):
                size += len(chunk)
                if size > MAX_TARBALL_BYTES:
                    raise RegistryError(f"{address} is larger than {MAX_TARBALL_BYTES // MIB} MiB")
                chunks.append(chunk)
        return b"".join(chunks)

    def _get(self, address: str, **kwargs) -> requests.Response:
        try:
            return self.session.get(address, timeout=self.timeout, **kwargs)
        except requests.RequestException as exc:
            raise RegistryError(f"the npm registry could not be reached ({address}): {exc}") from exc

    @staticmethod
    def _check(answer: requests.Response, what: str) -> None:
        if answer.status_code != 200:
            raise RegistryError(f"the npm registry answered {answer.status_code} for {what}")
