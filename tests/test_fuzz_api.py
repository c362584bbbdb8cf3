"""Property-based bad input (hypothesis) for every participant endpoint: random and malformed bodies, headers, ids.
Whatever arrives, the answer is JSON and never a 5xx; a 4xx carries {error, message} and leaves the database as it
was. Bodies near-valid on purpose (one part changed, dropped or added, down inside the response too) reach the deep
checks, not just the parser: the response of every task type and every field of every questionnaire, with the values
that once got through (#21): integers far beyond float range, digits that are not ASCII, NUL and lone surrogates,
timestamps at and past the ends of the calendar, strings far over any length limit."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta, timezone
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.db import db
from server.models import ParticipantSession, SurveyResponse, Trial
from server.studies.surveys import SURVEYS, validate_answers
from tests.helpers import PROLIFIC, enter, trial_body

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# Numbers checks get wrong: integers far beyond float range (and 64 bits), non-finite and extreme floats, bools.
numbers = (
    st.integers(min_value=-(10**500), max_value=10**500)
    | st.floats()
    | st.sampled_from(
        [
            10**400,
            -(10**400),
            2**1024,
            2**63,
            -(2**63) - 1,
            2**53 + 1,
            1e308,
            5e-324,
            -0.0,
            float("inf"),
            float("nan"),
            True,
            False,
        ]
    )
)
# Numbers as text: digits str.isdigit() takes and int() refuses or reads, signs, exponents, thousands of digits.
digit_text = st.sampled_from(
    [
        "²",
        "٣",
        "٣٠",
        "３０",
        "¹²",
        "--5",
        "+5",
        "-0",
        "5-",
        " 7 ",
        "1e400",
        "1_000",
        "0x1f",
        "Infinity",
        "NaN",
        "30.0",
        "34\x00",
        "1" * 5000,
        "-" + "9" * 5000,
        str(10**400),
    ]
)
# Text checks get wrong: blanks, NUL and other control characters, lone surrogates, line breaks in one-line text,
# and strings far over every length limit (yet under the 64 kB body limit).
blanks = st.sampled_from(["", " ", "   ", "\u3000\t\n", "\r\n", "\xa0"])
long_text = st.sampled_from([65, 81, 2001, 50_000]).map(lambda n: "x" * n)
odd_text = (
    st.sampled_from(["\x00", "a\x00b", "\x1b[31m", "\ud800", "x\udfff", "a\nb", '=HYPERLINK("x")'])
    | blanks
    | long_text
    | st.text(st.characters(codec=None, exclude_categories=()), max_size=20)
)
offsets = st.timedeltas(min_value=-timedelta(hours=23, minutes=59), max_value=timedelta(hours=23, minutes=59))
timestamps = st.sampled_from(
    [
        "0001-01-01T00:00:00+14:00",
        "9999-12-31T23:59:59-14:00",
        "0001-01-01T00:00:00",
        "9999-12-31T23:59:59.999999+00:00",
        "0000-01-01T00:00:00",
        "10000-01-01T00:00:00",
        "-2026-01-01",
        "2026-02-30T12:00:00",
        "2026-11-22T25:00:00",
        "2026-11-22T12:00:00+24:00",
        "2026-11-22T12:00:00\x00",
    ]
) | st.builds(lambda moment, offset: moment.replace(tzinfo=timezone(offset)).isoformat(), st.datetimes(), offsets)
json_values = st.recursive(
    st.none() | st.booleans() | numbers | st.text(max_size=20) | digit_text | odd_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
junk = json_values | timestamps | st.text(max_size=300)
# A value of the same JSON type that is wrong, mostly; or any junk.
numbers_or_junk = st.one_of(numbers, numbers, digit_text, junk)
text_or_junk = st.one_of(odd_text, odd_text, digit_text, timestamps, junk)
content_types = st.sampled_from(
    [
        "application/json",
        "application/json; charset=utf-8",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "",
        "application/jsonx",
    ]
)
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
headers = st.dictionaries(
    st.sampled_from(
        [
            "X-Forwarded-For",
            "Accept",
            "User-Agent",
            "Origin",
            "Cookie",
            "X-Requested-With",
            "Accept-Encoding",
            "If-None-Match",
        ]
    ),
    header_text,
    max_size=3,
)
ids = st.text(max_size=80) | st.sampled_from(["", ".", "..", "%00", "a/b", "\x00", "a\x00b" * 4, "x" * 65])
# Numbers no JSON encoder here writes: more digits than Python reads (4,300), floats beyond range.
raw_numbers = st.sampled_from([b"1" * 5000, b"-" + b"9" * 5000, b"1e400", b"-1e400", b"Infinity", b"NaN"])


def no_surrogates(text):
    return not any("\ud800" <= c <= "\udfff" for c in text)  # a URL cannot carry them


def valid_response(slug, item, vocabulary):
    """An answer the page could send to plan item `item` of a demo study (one per task type)."""
    if slug == "study3":
        return {"percent": 42.5}
    if slug == "two4two-demo":
        return {"rating": 4}
    if slug == "sketch-demo":
        return {"guesses": [{"label_id": label, "rt_ms": 1500 + 500 * n} for n, label in enumerate(vocabulary[:2])]}
    if slug == "hive-prototree":
        return {"decisions": ["present", "absent"], "confidence": 3}
    if slug == "hive-agreement":
        ratings = {"similarity": [3] * len(item["options"][0]["explanation"])} if item["similarity_ratings"] else {}
        return {"confidence": 2, **ratings}
    return {"choice": item["options"][0]["key"], "confidence": 3}  # distinction, output prediction


STUDIES = (
    "study3",
    "two4two-demo",
    "sketch-demo",
    "hive-agreement",
    "hive-distinction",
    "hive-output-prediction",
    "hive-prototree",
)
VALID_ANSWER = {
    "boolean": lambda f: True,
    "choice": lambda f: f["choices"][-1],
    "integer": lambda f: f["min"],
    "scale": lambda f: f["max"],
    "text": lambda f: "Chilean",
    "longtext": lambda f: "one\ntwo",
}


def database_digest() -> str:
    """A hash of every row a participant endpoint could write (read back: a row stored but unreadable fails)."""
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


def paths(value, path=()):
    """Every part of a JSON value, as the keys and indexes that reach it."""
    yield path
    if isinstance(value, (dict, list)):
        for key, part in value.items() if isinstance(value, dict) else enumerate(value):
            yield from paths(part, (*path, key))


def replaced(value, path, new):
    if not path:
        return new
    copy = value.copy()
    copy[path[0]] = replaced(value[path[0]], path[1:], new)
    return copy


def near_valid(data, valid):
    """`valid` with one part changed: replaced by junk, a key dropped or added, a list grown or shrunk."""
    path = data.draw(st.sampled_from(list(paths(valid))))
    part = valid
    for key in path:
        part = part[key]
    changes = [junk]
    if isinstance(part, (int, float)):
        changes = [numbers_or_junk]
    if isinstance(part, str):
        changes = [text_or_junk]
    if isinstance(part, dict):
        changes.append(
            st.builds(lambda k, v: {**part, k: v}, st.text(max_size=12) | st.sampled_from(sorted(part)), junk)
        )
        if part:
            changes.append(st.sampled_from(sorted(part)).map(lambda k: {f: v for f, v in part.items() if f != k}))
    if isinstance(part, list):
        changes += [
            st.builds(lambda v: [*part, v], junk),
            st.integers(2, 12).map(lambda n: part * n),
            st.just(part[:-1]),
        ]
    return replaced(valid, path, data.draw(st.one_of(changes)))


# Interaction records as a page sends them (docs/participant-api.md), for near_valid to break.
EVENTS = [{"t": 10, "type": "input", "target": "percent", "value": "42"}, {"t": 20, "type": "hidden"}]


def near_valid_trial(data, slug, plan, vocabulary):
    """A trial body for one of the plan's items with one part wrong: its response above all, its trial_id, its
    client_time or its interaction records; or any JSON."""
    item = data.draw(st.sampled_from(plan))
    valid = {**trial_body(item), "response": valid_response(slug, item, vocabulary), "events": EVENTS}
    change = data.draw(
        st.sampled_from(["response", "response", "client_time", "trial_id", "events", "anywhere", "all"])
    )
    if change == "response":
        return {**valid, "response": near_valid(data, valid["response"])}
    if change == "events":
        return {**valid, "events": near_valid(data, EVENTS)}
    if change == "client_time":
        return {**valid, "client_time": data.draw(timestamps)}
    if change == "trial_id":
        return {**valid, "trial_id": data.draw(ids)}
    return near_valid(data, valid) if change == "anywhere" else data.draw(json_values)


def session(client, slug, consent=True):
    token = enter(client, slug, consent=consent)
    return token, client.get(f"/api/sessions/{token}").get_json()["plan"]


def vocabulary_of(client, slug):
    response = client.get(f"/vocabulary/{slug}.json")
    return [entry[0] for entry in response.get_json()["entries"]] if response.status_code == 200 else []


def test_trials_endpoint_with_malformed_bodies(client):
    """Every task type's response (a demo study of each), after consent: before, nothing reaches the task's
    checks."""
    studies = {slug: (*session(client, slug), vocabulary_of(client, slug)) for slug in STUDIES}

    @settings(FUZZ, max_examples=50 * len(STUDIES))
    @given(data=st.data(), slug=st.sampled_from(STUDIES))
    def run(data, slug):
        token, plan, vocabulary = studies[slug]
        body = near_valid_trial(data, slug, plan, vocabulary)
        before = database_digest()
        response = client.post(f"/api/sessions/{token}/trials", json=body)
        if response.status_code in (200, 201):  # junk that happened to be a valid answer: accepted, not an error
            database_digest()  # and stored readably
            return
        check(response, before)

    run()


def test_nothing_is_taken_before_consent(client):
    """Before consent, trials and questionnaires other than consent are refused whatever they hold: a 4xx."""
    token, plan = session(client, "hive-agreement", consent=False)
    vocabulary = vocabulary_of(client, "hive-agreement")
    surveys = sorted(client.get(f"/api/sessions/{token}").get_json()["surveys"])

    @FUZZ
    @given(data=st.data())
    def run(data):
        before = database_digest()
        if data.draw(st.booleans()):
            response = client.post(
                f"/api/sessions/{token}/trials", json=near_valid_trial(data, "hive-agreement", plan, vocabulary)
            )
        else:
            name = data.draw(st.sampled_from(surveys))
            response = client.put(
                f"/api/sessions/{token}/surveys/{name}", json={"answers": near_valid(data, valid_answers(name))}
            )
        assert 400 <= response.status_code < 500, response.data[:300]
        check(response, before)

    run()


@FUZZ
@given(
    raw=st.binary(max_size=200)
    | junk.map(lambda v: json.dumps(v).encode())
    | raw_numbers.map(lambda n: b'{"trial_index": 0, "response": {"percent": ' + n + b"}}"),
    content_type=content_types,
    extra=headers,
    endpoint=st.sampled_from(
        [
            ("POST", "/trials"),
            ("PUT", "/environment"),
            ("POST", "/complete"),
            ("PUT", "/surveys/consent"),
            ("PUT", "/surveys/demographics"),
            ("GET", ""),
            ("GET", "/summary"),
        ]
    ),
)
def test_every_endpoint_with_raw_bytes_and_odd_headers(client, raw, content_type, extra, endpoint):
    token = getattr(test_every_endpoint_with_raw_bytes_and_odd_headers, "token", None) or enter(client, **PROLIFIC)
    test_every_endpoint_with_raw_bytes_and_odd_headers.token = token
    before = database_digest()
    method, path = endpoint
    response = client.open(
        f"/api/sessions/{token}{path}", method=method, data=raw, headers={**extra, "Content-Type": content_type}
    )
    if response.status_code < 400 and method != "GET":
        return  # valid by chance (e.g. the environment as four integers)
    check(response, before)


@FUZZ
@given(token=ids, name=ids, body=json_values)
def test_unknown_tokens_and_survey_names(client, token, name, body):
    before = database_digest()
    token, name = quote(token, safe=""), quote(name, safe="")  # as a browser sends them
    for method, path in (
        ("GET", ""),
        ("POST", "/trials"),
        ("PUT", "/environment"),
        ("POST", "/complete"),
        ("PUT", f"/surveys/{name}"),
        ("GET", "/summary"),
    ):
        response = client.open(f"/api/sessions/{token}{path}", method=method, json=body)
        check(response, before)
        assert response.status_code >= 400


def valid_answers(name):
    return {f["name"]: VALID_ANSWER[f["type"]](f) for f in SURVEYS[name]["fields"]}


# Each field type, and wrong values of the same JSON type above all.
FIELD_JUNK = {
    "boolean": numbers_or_junk,
    "choice": text_or_junk,
    "integer": st.one_of(digit_text, numbers, junk),
    "text": st.one_of(blanks, long_text, odd_text, junk),
}
FIELD_JUNK.update(scale=FIELD_JUNK["integer"], longtext=FIELD_JUNK["text"])
FIELDS = {
    kind: [(name, f) for name, survey in sorted(SURVEYS.items()) for f in survey["fields"] if f["type"] == kind]
    for kind in sorted(FIELD_JUNK)
}


def test_survey_answers_fuzzed(client):
    """Every field type of the questionnaires, near-valid; what is accepted is stored clean."""
    tokens = {}
    for slug in ("study3", "hive-agreement"):  # between them, they ask every questionnaire
        token, _ = session(client, slug)
        for name in ["consent", *client.get(f"/api/sessions/{token}").get_json()["surveys"]]:
            tokens[name] = token
    assert set(tokens) == set(SURVEYS)

    @settings(FUZZ, max_examples=50 * len(FIELDS))
    @given(data=st.data(), kind=st.sampled_from(sorted(FIELDS)))
    def run(data, kind):
        name, field = data.draw(st.sampled_from(FIELDS[kind]))
        answers = valid_answers(name)
        change = data.draw(st.sampled_from(["field", "field", "anywhere", "all"]))
        if change == "field":
            answers[field["name"]] = data.draw(FIELD_JUNK[kind])
        body = {"answers": near_valid(data, answers) if change == "anywhere" else answers}
        if change == "all":
            body = data.draw(json_values)
        before = database_digest()
        response = client.put(f"/api/sessions/{tokens[name]}/surveys/{name}", json=body)
        if response.status_code == 200:
            for f in SURVEYS[name]["fields"]:  # accepted: a required answer given, no text over its limit
                value = body["answers"].get(f["name"])
                assert not f["required"] or value is not None and str(value).strip(), (f["name"], value)
                assert "max_length" not in f or len((value or "").strip()) <= f["max_length"], f["name"]
            stored = db.session.scalar(
                db.select(SurveyResponse.answers)
                .join(ParticipantSession)
                .where(ParticipantSession.token == tokens[name], SurveyResponse.name == name)
            )
            assert validate_answers(name, stored) == stored  # nothing stored that the checks would refuse
            return
        check(response, before)

    run()


@FUZZ
@given(
    slug=ids,
    token=ids,
    query=st.dictionaries(
        st.sampled_from(["PROLIFIC_PID", "STUDY_ID", "SESSION_ID", "x"]),
        st.text(max_size=70) | (odd_text | digit_text).filter(no_surrogates),
        max_size=3,
    ),
)
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
