"""The calls studyhive makes to Prolific's researcher API (v1), on `requests`. No Flask here: the CLI and the
dashboard build a client from the app's configuration (server/cli/prolific.py).

- Auth: `Authorization: Token …`. The token stays in the client's HTTP session; no message, repr or log shows it.
- Every call has a connect and a read timeout.
- Calls that are safe to repeat are retried on time-outs, connection errors, 429 and 5xx, with exponential back-off
  (honouring Retry-After) up to a cap: reads; transitions and bulk approval (Prolific ignores a repeated one);
  creating a bonus batch (an unpaid batch costs nothing). Paying a batch is not idempotent (a second call pays
  twice), so it is repeated only when Prolific certainly did not act on it (429, or no connection was made); any
  other failure raises PaymentUnknown, which the caller resolves by reading the participants' bonus payments.
- A 4xx raises ProlificError with Prolific's `detail` (a string, a list, or {field: [messages]}).
- Lists follow `_links.next`, and only on the API's own host: the token is sent nowhere else.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

import requests
from urllib3.exceptions import NewConnectionError

BULK_APPROVE_MAX = 1000  # submissions per bulk-approve call, as Prolific recommends
MIN_REJECTION_MESSAGE = 100  # characters Prolific requires of a rejection's message
REJECTION_CATEGORIES = (
    "TOO_QUICKLY",
    "TOO_SLOWLY",
    "FAILED_INSTRUCTIONS",
    "INCOMP_LONGITUDINAL",
    "FAILED_CHECK",
    "LOW_EFFORT",
    "MALINGERING",
    "NO_CODE",
    "BAD_CODE",
    "NO_DATA",
    "UNSUPP_DEVICE",
    "OTHER",
)


class ProlificError(Exception):
    """Prolific refused a call (4xx, with its detail) or could not be reached after the retries."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class PaymentUnknown(ProlificError):
    """A pay call that may or may not have paid: the answer was lost, late, a 5xx, or a refusal."""


class ProlificClient:
    def __init__(
        self,
        token: str,
        base_url: str,
        *,
        timeout: float = 30.0,
        connect_timeout: float = 5.0,
        attempts: int = 6,
        backoff: float = 1.0,
        backoff_cap: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        if not token:
            raise ProlificError("no Prolific API token: set PROLIFIC_API_TOKEN in the environment")
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.timeout, self.connect_timeout = timeout, connect_timeout
        self.attempts, self.backoff, self.backoff_cap, self._sleep = max(1, attempts), backoff, backoff_cap, sleep
        self._http = requests.Session()
        self._http.headers.update({"Authorization": f"Token {token}", "Accept": "application/json"})

    def __repr__(self) -> str:
        return f"ProlificClient({self.base_url!r})"

    # ------------------------------------------------------------------ the calls

    def study(self, study_id: str) -> dict[str, Any]:
        return self._call("GET", f"studies/{quote(study_id)}/")

    def submissions(self, study_id: str) -> Iterator[dict[str, Any]]:
        """Every submission of a study, page after page."""
        url, params, seen = self._url("submissions/"), {"study": study_id}, set()
        while url:
            seen.add(url)
            page = self._call("GET", url, params=params)
            yield from page.get("results") or []
            url, params = ((page.get("_links") or {}).get("next") or {}).get("href"), None  # the link has them
            if url and (urlsplit(url)[:2] != urlsplit(self.base_url)[:2] or url in seen):
                raise ProlificError(f"Prolific's next-page link {url!r} leaves the API or loops; stopped reading")

    def submission(self, submission_id: str) -> dict[str, Any]:
        """One submission with its `bonus_payments` (cents) and `entered_code`."""
        return self._call("GET", f"submissions/{quote(submission_id)}/")

    def reject(self, submission_id: str, message: str, category: str) -> dict[str, Any]:
        return self._call(
            "POST",
            f"submissions/{quote(submission_id)}/transition/",
            json={"action": "REJECT", "message": message, "rejection_category": category},
        )

    def bulk_approve(self, submission_ids: list[str]) -> dict[str, Any]:
        if not 0 < len(submission_ids) <= BULK_APPROVE_MAX:
            raise ValueError(f"bulk approval takes 1 to {BULK_APPROVE_MAX} submissions")
        return self._call("POST", "submissions/bulk-approve/", json={"submission_ids": submission_ids})

    def create_bonus_batch(self, study_id: str, rows: list[tuple[str, Decimal]]) -> dict[str, Any]:
        """A batch of bonuses, amounts in the study's currency; answers its `id` and `amount`, `fees`,
        `total_amount` in cents. Nothing is paid until :meth:`pay_bonus_batch`."""
        csv = "\n".join(f"{participant},{amount:.2f}" for participant, amount in rows)
        return self._call("POST", "submissions/bonus-payments/", json={"study_id": study_id, "csv_bonuses": csv})

    def pay_bonus_batch(self, batch_id: str) -> dict[str, Any]:
        """Pay a created batch. Never repeated unless Prolific certainly did not act: see the module's docstring."""
        return self._call("POST", f"bulk-bonus-payments/{quote(batch_id)}/pay/", json={}, idempotent=False)

    # ------------------------------------------------------------------ HTTP

    def _url(self, path: str) -> str:
        return urljoin(self.base_url, path)

    def _call(
        self, method: str, url: str, *, params: dict | None = None, json: Any = None, idempotent: bool = True
    ) -> dict[str, Any]:
        url = url if "://" in url else self._url(url)
        what = f"{method} {url[len(self.base_url) :] if url.startswith(self.base_url) else url}"
        attempt = 0
        while True:
            attempt += 1
            last = attempt >= self.attempts
            try:
                response = self._http.request(
                    method, url, params=params, json=json, timeout=(self.connect_timeout, self.timeout)
                )
            except requests.RequestException as exc:
                if not idempotent and not _never_sent(exc):
                    raise PaymentUnknown(
                        f"{what}: no answer from Prolific ({type(exc).__name__}); it may or may not have acted"
                    ) from None
                if last:
                    raise ProlificError(
                        f"{what}: Prolific could not be reached after {attempt} attempts ({type(exc).__name__})"
                    ) from None
                self._wait(attempt, None)
                continue
            status = response.status_code
            if status < 300:
                try:
                    return response.json() if response.content else {}
                except ValueError:
                    if not idempotent:  # accepted all the same: nothing in its body is needed
                        return {}
                    raise ProlificError(
                        f"{what}: Prolific answered {status} with a body that is not JSON", status
                    ) from None
            if status == 429 or status >= 500:
                if status >= 500 and not idempotent:
                    raise PaymentUnknown(f"{what}: Prolific answered {status}; it may or may not have acted")
                if last:
                    raise ProlificError(f"{what}: Prolific answered {status} {attempt} times; try again later", status)
                self._wait(attempt, response.headers.get("Retry-After"))
                continue
            error = PaymentUnknown if not idempotent else ProlificError
            if status == 401:
                raise error(f"{what}: Prolific refused the API token (401): check PROLIFIC_API_TOKEN", status)
            raise error(f"{what}: Prolific answered {status}: {_detail(response)}", status)

    def _wait(self, attempt: int, retry_after: str | None) -> None:
        delay = self.backoff * 2 ** (attempt - 1)
        if retry_after and retry_after.strip().isdigit():
            delay = max(delay, int(retry_after))
        self._sleep(min(delay, self.backoff_cap))


def from_config(config) -> ProlificClient:
    """A client set up from the app's PROLIFIC_API_* settings (server/config.py)."""
    return ProlificClient(
        config["PROLIFIC_API_TOKEN"],
        config["PROLIFIC_API_URL"],
        timeout=config["PROLIFIC_API_TIMEOUT"],
        attempts=config["PROLIFIC_API_ATTEMPTS"],
        backoff=config["PROLIFIC_API_BACKOFF"],
    )


def _never_sent(exc: requests.RequestException) -> bool:
    """True when the request cannot have reached Prolific: no connection was made."""
    if isinstance(exc, requests.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, NewConnectionError)


def _detail(response: requests.Response) -> str:
    """Prolific's error `detail` (or title) as one line."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:300] or response.reason
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return str(body)[:300]
    detail = error.get("detail") or error.get("title") or ""
    if isinstance(detail, dict):
        return "; ".join(
            f"{field}: {' '.join(map(str, v)) if isinstance(v, list) else v}" for field, v in detail.items()
        )
    if isinstance(detail, list):
        return "; ".join(map(str, detail))
    return str(detail)
