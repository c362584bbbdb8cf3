"""Participant URLs, built here only: the paths the participant pages and API answer with, and what to paste into
Prolific or LabInTheWild for each study (`flask links` and the study page of the dashboard print the same links,
:func:`study_links`). The routes that serve them are in server/web/participant.py."""

from __future__ import annotations

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
