"""Participant URLs, built here only: the paths the participant pages and API answer with, and what to paste into
Prolific or LabInTheWild for each study (`flask links` and the study page of the dashboard print the same links,
:func:`study_links`), and researchers' signed preview links (:func:`preview_link`). The routes that serve them are in
server/web/participant.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from ..models import Study

PROLIFIC_QUERY = "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"


def entry_path(slug: str) -> str:
    """The study's entry link (GET: a new session, or the one a PROLIFIC_PID has)."""
    return f"/study/{slug}"


def results_path(slug: str, token: str) -> str:
    """A completed participant's results page."""
    return f"/study/{slug}/s/{token}/results"


def stimulus_path(slug: str, key: str) -> str:
    """A stimulus as shown to people."""
    return f"/stimuli/{slug}/{key}"


def study_links(study: Study, base_url: str) -> list[tuple[str, str]]:
    """(what, text to paste) for a study: its plain link, the Prolific study URL with Prolific's placeholders and,
    when the study has one, the completion URL and code to enter on Prolific."""
    base = base_url.rstrip("/")
    entry = base + entry_path(study.slug)
    links = [("try it / LabInTheWild", entry), ("Prolific study URL", f"{entry}?{PROLIFIC_QUERY}")]
    url = study.config.get("completion_url")
    if url:
        links.append(("Prolific completion URL", url))
        if "cc=" in url:
            links.append(("Prolific completion code", url.rsplit("cc=", 1)[1]))
    return links


# A preview link is signed with the app's SECRET_KEY under its own salt, so no other signed value of the app (the
# researchers' session cookie) can pass for one, and expires after PREVIEW_LINK_HOURS.
PREVIEW_SALT = "studyhive.preview-link"


class PreviewLinkError(ValueError):
    """A preview link that cannot be opened; `expired` tells an old link from a forged or mangled one."""

    def __init__(self, message: str, expired: bool = False):
        super().__init__(message)
        self.expired = expired


def _signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=PREVIEW_SALT)


def preview_path(slug: str, signed: str) -> str:
    """A preview link's path (GET: a new preview session, then its page with the researcher bar)."""
    return f"/study/{slug}/preview/{signed}"


def preview_link(study: Study, condition: str | None = None) -> tuple[str, datetime]:
    """(path, expiry) of a signed preview link for the study, in `condition` when it names one (ValueError for a
    condition the study does not have)."""
    if condition is not None and condition not in condition_names(study.config):
        raise ValueError(f"{study.slug} has no condition {condition!r} ({_listing(study.config)})")
    signed = _signer().dumps({"slug": study.slug, "condition": condition})
    expires = datetime.now(UTC) + timedelta(hours=current_app.config["PREVIEW_LINK_HOURS"])
    return preview_path(study.slug, signed), expires


def read_preview_link(slug: str, signed: str) -> str | None:
    """The condition a preview link for study `slug` names (None: none named); PreviewLinkError when the link is
    expired, forged, or made for another study."""
    max_age = current_app.config["PREVIEW_LINK_HOURS"] * 3600
    try:
        payload = _signer().loads(signed, max_age=max_age)
    except SignatureExpired:
        raise PreviewLinkError("this preview link has expired", expired=True) from None
    except BadSignature:
        raise PreviewLinkError("this is not a valid preview link") from None
    if not isinstance(payload, dict) or payload.get("slug") != slug:
        raise PreviewLinkError("this preview link is for another study")
    return payload.get("condition")


def condition_names(config: dict) -> list[str]:
    """The study's conditions in study-file order (empty without conditions). Read leniently, as the dashboard's
    counts read them: its study page shows preview links for whatever configuration a study row holds."""
    found = config.get("conditions")
    return [c["name"] for c in found if isinstance(c, dict) and "name" in c] if isinstance(found, list) else []


def _listing(config: dict) -> str:
    names = condition_names(config)
    return "its conditions: " + ", ".join(names) if names else "it has no conditions"
