"""The CLI layer: `flask <command>` for researchers and operators. Commands parse their options, call the domain
(server/<area>/) and turn its errors into click errors; no domain module imports this package."""

from __future__ import annotations

from .analyze import analyze_command
from .data import data_cli
from .deploy import deploy_cli
from .export import export_command
from .hypoml_command import hypoml_command
from .links import links_command
from .participants import participants_cli
from .plan import plan_command
from .predictions import import_label_predictions_command, import_predictions_command
from .prolific import prolific_cli
from .researcher import researcher_cli
from .sessions import sessions_cli
from .settings import settings_cli
from .stimuli import stimuli_cli
from .studies import studies_cli

COMMANDS = (
    researcher_cli,
    studies_cli,
    export_command,
    participants_cli,
    stimuli_cli,
    links_command,
    import_predictions_command,
    analyze_command,
    plan_command,
    hypoml_command,
    import_label_predictions_command,
    prolific_cli,
    deploy_cli,
    settings_cli,
    sessions_cli,
    data_cli,
)


def init_app(app):
    for command in COMMANDS:
        app.cli.add_command(command)
