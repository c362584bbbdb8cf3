"""The participant-code key (server/identifiers.py): the setting's, else one made once in the
database and shared by every app on it; codes are 64 bits of HMAC-SHA256 under it."""

import hashlib
import hmac

from server import identifiers
from server.db import db
from server.models import DeploymentSecret


def test_the_key_is_made_once_in_the_database_and_every_app_on_it_gets_the_same(app):
    first = identifiers.key()
    assert len(first) == 64 and db.session.get(DeploymentSecret, identifiers.KEY_NAME).value == first.decode()
    app.extensions.pop("studyhive.participant_code_key")  # another app server: nothing cached
    assert identifiers.key() == first
    code = identifiers.participant_code(None, "5f1e0a9b8c7d6e5f4a3b2c1d", "tok")
    mac = hmac.new(first, b"pid:5f1e0a9b8c7d6e5f4a3b2c1d", hashlib.sha256).hexdigest()
    assert code == mac[:16] == identifiers.participant_code(mac, None, "tok")
    assert identifiers.participant_code(None, None, "tok") != identifiers.participant_code(None, None, "tok2")


def test_the_setting_wins_over_the_database(app):
    app.config["PARTICIPANT_CODE_KEY"] = "from-the-environment"
    app.extensions.pop("studyhive.participant_code_key", None)
    assert identifiers.key() == b"from-the-environment"
    assert db.session.get(DeploymentSecret, identifiers.KEY_NAME) is None
