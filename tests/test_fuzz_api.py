"""Property-based bad input (hypothesis) for every participant endpoint: random and malformed bodies, headers, ids.
Whatever arrives, the answer is JSON and never a 5xx; a 4xx carries {error, message} and leaves the database as it
was. Bodies near-valid on purpose (one field changed, dropped or added) reach the deep checks, not just the parser."""
from __future__ import annotations

import hashlib
import json
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.db import db
from server.models import ParticipantSession, SurveyResponse, Trial
from tests.helpers import PROLIFIC, enter, trial_body

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)
junk = json_values | st.floats() | st.integers(min_value=-2**70, max_value=2**70) | st.text(max_size=300)
content_types = st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain",
                                 "application/x-www-form-urlencoded", "multipart/form-data", "", "application/jsonx"])
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
headers = st.dictionaries(st.sampled_from(["X-Forwarded-For", "Accept", "User-Agent", "Origin", "Cookie",
                                           "X-Requested-With", "Accept-Encoding", "If-None-Match"]),
                          header_text, max_size=3)
ids = st.text(max_size=80).filter(lambda t: "\x00" not in t) | st.sampled_from(["", ".", "..", "%00", "a/b"])


def database_digest() -> str:
    """A hash of every row a participant endpoint could write."""
    db.session.rollback()
    rows = []
    for model in (ParticipantSession, Trial, SurveyResponse):
        for row in db.session.execute(db.select(model.__table__).order_by(model.__table__.c.id)):
            rows.append(repr(tuple(row)))
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


def check(response, before):
    assert response.status_code < 500, response.data[:300]
    assert response.is_json, (response.status_code, response.data[:200])
    if response.status_code >= 400:
        body = response.get_json()
        assert body["error"] and body["message"]
        assert database_digest() == before


def near_valid(item):
    """A trial body with one field replaced by junk, dropped, or an extra field added."""
    valid = trial_body(item)
    return st.one_of(
        st.builds(lambda k, v: {**valid, k: v}, st.sampled_from(sorted(valid)), junk),
        st.sampled_from(sorted(valid)).map(lambda k: {f: v for f, v in valid.items() if f != k}),
        st.builds(lambda k, v: {**valid, k: v}, st.text(max_size=12).filter(lambda k: k not in valid), json_values),
        st.builds(lambda r: {**valid, "response": {"percent": r}}, junk))


def session(client):
    token = enter(client, **PROLIFIC)
    return token, client.get(f"/api/sessions/{token}").get_json()["plan"]


def test_trials_endpoint_with_malformed_bodies(client):
    token, plan = session(client)

    @FUZZ
    @given(data=st.data())
    def run(data):
        item = data.draw(st.sampled_from(plan))
        body = data.draw(near_valid(item) | json_values)
        before = database_digest()
        response = client.post(f"/api/sessions/{token}/trials", json=body)
        if response.status_code in (200, 201):  # junk that happened to be a valid answer: accepted, not an error
            return
        check(response, before)
    run()


@FUZZ
@given(raw=st.binary(max_size=200) | junk.map(lambda v: json.dumps(v).encode()), content_type=content_types,
       extra=headers, endpoint=st.sampled_from([("POST", "/trials"), ("PUT", "/environment"), ("POST", "/complete"),
                                                ("PUT", "/surveys/consent"), ("PUT", "/surveys/demographics"),
                                                ("GET", ""), ("GET", "/summary")]))
def test_every_endpoint_with_raw_bytes_and_odd_headers(client, raw, content_type, extra, endpoint):
    token = getattr(test_every_endpoint_with_raw_bytes_and_odd_headers, "token", None) or enter(client, **PROLIFIC)
    test_every_endpoint_with_raw_bytes_and_odd_headers.token = token
    before = database_digest()
    method, path = endpoint
    response = client.open(f"/api/sessions/{token}{path}", method=method, data=raw,
                           headers={**extra, "Content-Type": content_type})
    if response.status_code < 400 and method != "GET":
        return  # valid by chance (e.g. the environment as four integers)
    check(response, before)


@FUZZ
@given(token=ids, name=ids, body=json_values)
def test_unknown_tokens_and_survey_names(client, token, name, body):
    before = database_digest()
    for method, path in (("GET", ""), ("POST", "/trials"), ("PUT", "/environment"), ("POST", "/complete"),
                         ("PUT", f"/surveys/{name}"), ("GET", "/summary")):
        response = client.open(f"/api/sessions/{token}{path}", method=method, json=body)
        check(response, before)
        assert response.status_code >= 400


def test_survey_answers_fuzzed(client):
    token, _ = session(client)

    @FUZZ
    @given(name=st.sampled_from(["consent", "demographics"]), answers=json_values,
           field=st.sampled_from(["gender", "age", "education", "nationality", "agreed"]), value=junk)
    def run(name, answers, field, value):
        before = database_digest()
        body = {"answers": answers} if isinstance(answers, dict) and len(answers) % 2 else {"answers": {field: value}}
        response = client.put(f"/api/sessions/{token}/surveys/{name}", json=body)
        if response.status_code == 200:
            return
        check(response, before)
    run()


@FUZZ
@given(slug=ids, token=ids, query=st.dictionaries(st.sampled_from(["PROLIFIC_PID", "STUDY_ID", "SESSION_ID", "x"]),
                                                   st.text(max_size=70), max_size=3))
def test_entry_and_page_links_with_mangled_ids(client, slug, token, query):
    """The HTML side: entry links and session pages with any slug, token or query answer < 500, and only a
    well-formed entry link may create a session."""
    before = database_digest()
    slug, token = quote(slug, safe=""), quote(token, safe="")  # as a browser sends them
    for url in (f"/study/{slug}", f"/study/study3/s/{token}", f"/study/{slug}/s/{token}/results"):
        response = client.get(url, query_string=query)
        assert response.status_code < 500
    entered = client.get("/study/study3", query_string=query)
    assert entered.status_code < 500
    if entered.status_code != 303:
        assert database_digest() == before
