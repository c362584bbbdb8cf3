"""The Prolific client (server/prolific/client.py) against the local fake Prolific (tests/fake_prolific.py): pages
followed through `_links.next`, 429 / 5xx / slow answers retried with capped exponential back-off, 4xx shown with
Prolific's detail, the pay call never repeated when it may have paid, and the token never shown."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from server.prolific.client import PaymentUnknown, ProlificClient, ProlificError
from tests.fake_prolific import FakeProlific

STUDY = "60f0a1b2c3d4e5f6a7b8c9d0"


@pytest.fixture
def fake():
    fake = FakeProlific().start()
    fake.add_study(STUDY, 50, {"completed": "C0MPLETE"})
    yield fake
    fake.stop()


@pytest.fixture
def waits():
    return []


@pytest.fixture
def client(fake, waits):
    return ProlificClient(
        fake.token,
        fake.url,
        timeout=0.5,
        connect_timeout=0.5,
        attempts=4,
        backoff=0.1,
        backoff_cap=0.25,
        sleep=waits.append,
    )


def test_every_page_is_read_through_the_next_links(fake, client):
    joined = [fake.join(STUDY, f"p{i:03d}") for i in range(45)]
    fake.join("another-study", "someone-else")
    read = list(client.submissions(STUDY))
    assert [s["id"] for s in read] == joined  # 20 + 20 + 5, none twice, none of the other study
    assert len(fake.calls("GET", r"submissions/")) == 3


def test_a_next_link_to_another_host_is_not_followed(fake, client):
    for i in range(25):
        fake.join(STUDY, f"p{i}")
    fake.next_host = "http://127.0.0.2:9"
    with pytest.raises(ProlificError, match="leaves the API"):
        list(client.submissions(STUDY))
    assert len(fake.calls("GET", r"submissions/")) == 1


def test_429_and_5xx_are_retried_with_capped_exponential_back_off(fake, client, waits):
    fake.join(STUDY, "p1")
    fake.fault("GET", r"submissions/", status=429, times=2)
    fake.fault("GET", r"submissions/", status=502, times=1)
    assert len(list(client.submissions(STUDY))) == 1
    assert waits == [0.1, 0.2, 0.25]  # doubling, capped; the fake's Retry-After of 0 does not shorten it


def test_a_slow_answer_times_out_and_is_retried(fake, client, waits):
    fake.fault("GET", rf"studies/{STUDY}/", kind="slow", seconds=1.0)
    assert client.study(STUDY)["id"] == STUDY
    assert waits == [0.1]


def test_retries_stop_at_the_cap_with_an_error(fake, client, waits):
    fake.fault("GET", rf"studies/{STUDY}/", status=503, times=10)
    with pytest.raises(ProlificError, match="answered 503 4 times"):
        client.study(STUDY)
    assert len(waits) == 3


@pytest.mark.parametrize(
    "body, shown",
    [
        (
            {"action": "REJECT", "message": "too short", "rejection_category": "LOW_EFFORT"},
            "message: Ensure this field has at least 100 characters.",
        ),
        ({"action": "DANCE"}, "action: Not a valid action."),
    ],
)
def test_a_4xx_shows_prolifics_detail_and_is_not_retried(fake, client, waits, body, shown):
    submission = fake.join(STUDY, "p1")
    with pytest.raises(ProlificError, match="answered 400") as caught:
        client._call("POST", f"submissions/{submission}/transition/", json=body)
    assert shown in str(caught.value) and waits == []


def test_a_detail_list_is_shown_and_a_bad_token_says_so(fake, client):
    fake.join(STUDY, "p1")
    with pytest.raises(ProlificError, match="Participant nobody did not take part in this study"):
        client.create_bonus_batch(STUDY, [("nobody", Decimal("1.00"))])
    stranger = ProlificClient("wrong-token", fake.url, attempts=1)
    with pytest.raises(ProlificError, match="refused the API token") as caught:
        stranger.study(STUDY)
    assert caught.value.status == 401


def test_the_token_is_in_no_message_or_repr(fake, client):
    fake.fault("GET", rf"studies/{STUDY}/", status=500, times=10)
    with pytest.raises(ProlificError) as caught:
        client.study(STUDY)
    assert fake.token not in str(caught.value) and fake.token not in repr(client)
    with pytest.raises(ProlificError, match="PROLIFIC_API_TOKEN"):
        ProlificClient("", fake.url)


def batch(fake, client):
    fake.join(STUDY, "p1")
    return client.create_bonus_batch(STUDY, [("p1", Decimal("1.25"))])


def test_bonus_batch_amounts_come_back_in_cents(fake, client):
    created = batch(fake, client)
    assert (created["amount"], created["total_amount"]) == (125, 125 + created["fees"])


@pytest.mark.parametrize(
    "fault, paid",
    [
        (dict(status=500), {}),  # refused before paying
        (dict(status=500, after=True), {"p1": [125]}),  # paid, then the answer was a 5xx
        (dict(status=400, after=True), {"p1": [125]}),
        (dict(kind="slow", seconds=1.0), {"p1": [125]}),  # paid, but the answer came after the client's time-out
    ],
)
def test_a_pay_call_that_may_have_paid_is_never_repeated(fake, client, waits, fault, paid):
    created = batch(fake, client)
    fake.fault("POST", r"bulk-bonus-payments/.*/pay/", **fault)
    with pytest.raises(PaymentUnknown):
        client.pay_bonus_batch(created["id"])
    time.sleep(0.6 if fault.get("kind") == "slow" else 0)  # the slow answer's payment lands meanwhile
    assert fake.payments() == paid and waits == []  # one call: a second would have paid (again)


def test_a_rate_limited_pay_call_is_repeated_and_pays_once(fake, client, waits):
    created = batch(fake, client)
    fake.fault("POST", r"bulk-bonus-payments/.*/pay/", status=429, times=2)
    client.pay_bonus_batch(created["id"])
    assert fake.payments() == {"p1": [125]} and waits == [0.1, 0.2]


def test_a_pay_call_to_an_unreachable_server_is_certainly_unpaid(fake, waits):
    closed = ProlificClient(fake.token, "http://127.0.0.1:9/api/v1/", attempts=2, backoff=0.1, sleep=waits.append)
    with pytest.raises(ProlificError) as caught:
        closed.pay_bonus_batch("abc")
    assert not isinstance(caught.value, PaymentUnknown) and waits == [0.1]
