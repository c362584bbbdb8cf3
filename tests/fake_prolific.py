"""A local stand-in for Prolific's researcher API v1, built from its documented payloads, served on a loopback port
for the Prolific tests: studies, paged submissions, transitions, bulk approval, bonus batches (create, then pay:
not idempotent, as Prolific's: a second pay call pays twice) and each submission's `bonus_payments`.

What Prolific does in its own time can be set: a payment listed in `bonus_payments` only `payment_delay` seconds
(of `clock`) after it was made, approvals of `failing_approvals` that a bulk approval accepts but never carries
out, and `between_pages`, called after each page of submissions is served (to change the list while it is paged).

Faults are injected per request (method + path pattern): an error status before the call acts or after it has
acted, a slow answer, or a hang (before or after acting) that the test releases, or during which it kills the
process that made the call."""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import Flask, abort, jsonify, request
from werkzeug.serving import WSGIRequestHandler, make_server

CATEGORIES = {
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
}
PREFIX = "/api/v1"


def error(status: int, detail: Any, title: str = "Error"):
    body = {
        "error": {
            "status": status,
            "error_code": status * 100,
            "title": title,
            "detail": detail,
            "additional_information": "",
            "traceback": None,
        }
    }
    return jsonify(body), status


class Quiet(WSGIRequestHandler):
    def log_request(self, *args, **kwargs):  # hundreds of calls per test: the fake's `requests` list has them
        pass


@dataclass
class Fault:
    method: str
    pattern: re.Pattern
    kind: str  # "status", "slow" or "hang"
    status: int = 503
    seconds: float = 0.0
    after: bool = False  # act first, then answer the fault
    times: int = 1
    reached: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)


class FakeProlific:
    def __init__(self, token: str = "test-token-5up3r-53cr3t"):
        self.token = token
        self.lock = threading.Lock()
        self.studies: dict[str, dict[str, Any]] = {}
        self.submissions: dict[str, dict[str, Any]] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.requests: list[tuple[str, str, Any]] = []  # (method, path, JSON body) of every authorised call
        self.faults: list[Fault] = []
        self.next_host: str | None = None  # set to make the next-page links point elsewhere
        self.clock: Callable[[], float] = time.time
        self.payment_delay = 0.0  # seconds from a payment to its showing in `bonus_payments`
        self.unlisted: list[tuple[float, str, int]] = []  # (when it shows, submission id, cents): paid, not shown
        self.failing_approvals: set[str] = set()  # submission ids a bulk approval accepts and leaves as they are
        self.between_pages: Callable[[int], None] | None = None  # called with the page number just served
        self.app = self._build()
        self.url = ""
        self._server = None

    # ------------------------------------------------------------------ the test's side

    def start(self) -> FakeProlific:
        self._server = make_server("127.0.0.1", 0, self._wsgi, threaded=True, request_handler=Quiet)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_port}{PREFIX}/"
        return self

    def stop(self) -> None:
        for fault in self.faults:
            fault.release.set()
        self._server.shutdown()

    def add_study(self, study_id: str, places: int, codes: dict[str, str]) -> None:
        self.studies[study_id] = {
            "id": study_id,
            "name": "fake study",
            "status": "ACTIVE",
            "total_available_places": places,
            "places_taken": 0,
            "completion_codes": [
                {"code": code, "code_type": code_type.upper(), "actions": [], "actor": "participant"}
                for code_type, code in codes.items()
            ],
        }

    def join(self, study_id: str, participant_id: str, first: bool = False) -> str:
        """A participant takes a place: an ACTIVE submission; its id is the study URL's SESSION_ID. `first`: listed
        before the others, as a list of the newest first shows it."""
        submission_id = uuid.uuid4().hex[:24]
        self.submissions[submission_id] = {
            "id": submission_id,
            "study_id": study_id,
            "participant_id": participant_id,
            "status": "ACTIVE",
            "started_at": f"2026-11-23T10:{len(self.submissions) // 60:02d}:{len(self.submissions) % 60:02d}.000000Z",
            "completed_at": None,
            "study_code": None,
            "entered_code": None,
            "bonus_payments": [],
        }
        if first:
            self.submissions = {submission_id: self.submissions.pop(submission_id), **self.submissions}
        return submission_id

    def set_status(self, submission_id: str, status: str) -> None:
        self.submissions[submission_id]["status"] = status

    def submit(self, submission_id: str, code: str) -> None:
        """The participant arrived at the completion URL with this code."""
        submission = self.submissions[submission_id]
        submission.update(
            status="AWAITING REVIEW", study_code=code, entered_code=code, completed_at="2026-11-23T11:00:00.000000Z"
        )

    def fault(self, method: str, path: str, kind: str = "status", **options) -> Fault:
        """Inject a fault into the next matching request(s); `path` is a regular expression on the path after
        /api/v1/."""
        fault = Fault(method, re.compile(path), kind, **options)
        self.faults.append(fault)
        return fault

    def calls(self, method: str, path: str) -> list[tuple[str, str, Any]]:
        pattern = re.compile(path)
        return [c for c in self.requests if c[0] == method and pattern.fullmatch(c[1])]

    def payments(self) -> dict[str, list[int]]:
        """participant -> bonus payments received (cents), shown or not yet."""
        paid = {sid: list(s["bonus_payments"]) for sid, s in self.submissions.items()}
        for _, sid, cents in self.unlisted:
            paid[sid].append(cents)
        return {self.submissions[sid]["participant_id"]: cents for sid, cents in paid.items() if cents}

    def _list_due(self) -> None:
        """Show the payments whose time has come."""
        now = self.clock()
        for due in [u for u in self.unlisted if u[0] <= now]:
            self.unlisted.remove(due)
            self.submissions[due[1]]["bonus_payments"].append(due[2])

    # ------------------------------------------------------------------ faults around the app

    def _take(self, method: str, path: str) -> Fault | None:
        with self.lock:
            for fault in self.faults:
                if fault.times and fault.method == method and fault.pattern.fullmatch(path):
                    fault.times -= 1
                    return fault
        return None

    def _wsgi(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        fault = self._take(environ["REQUEST_METHOD"], path[len(PREFIX) + 1 :]) if path.startswith(PREFIX) else None
        if fault is None:
            return self.app(environ, start_response)
        if fault.kind == "slow":
            time.sleep(fault.seconds)
            return self.app(environ, start_response)
        if fault.after:  # act, keep the answer, then fail or hang
            captured = {}
            body = b"".join(
                self.app(environ, lambda status, headers, exc=None: captured.update(status=status, headers=headers))
            )
        if fault.kind == "hang":
            fault.reached.set()
            fault.release.wait(120)
            if fault.after:
                start_response(captured["status"], captured["headers"])
                return [body]
            return self.app(environ, start_response)
        headers = [("Content-Type", "application/json")] + ([("Retry-After", "0")] if fault.status == 429 else [])
        start_response(f"{fault.status} Injected", headers)
        return [
            json.dumps({"error": {"status": fault.status, "title": "Injected", "detail": "injected fault"}}).encode()
        ]

    # ------------------------------------------------------------------ Prolific's API

    def _build(self) -> Flask:
        app = Flask("fake_prolific")
        fake = self

        @app.before_request
        def authorise():
            if request.headers.get("Authorization") != f"Token {fake.token}":
                return error(401, "Invalid token.", "Unauthorized")
            fake.requests.append((request.method, request.path[len(PREFIX) + 1 :], request.get_json(silent=True)))
            return None

        @app.get(f"{PREFIX}/studies/<study_id>/")
        def study(study_id):
            if study_id not in fake.studies:
                return error(404, "Not found.")
            return jsonify(fake.studies[study_id])

        @app.get(f"{PREFIX}/submissions/")
        def submissions():
            study_id = request.args.get("study")
            page, size = request.args.get("page", 1, type=int), request.args.get("page_size", 20, type=int)
            items = [s for s in fake.submissions.values() if s["study_id"] == study_id]
            chunk = items[(page - 1) * size : page * size]
            if fake.between_pages:
                fake.between_pages(page)
            base = (fake.next_host or request.host_url.rstrip("/")) + f"{PREFIX}/submissions/?study={study_id}"
            more = page * size < len(items)
            return jsonify(
                {
                    "results": [
                        {
                            key: s[key]
                            for key in ("id", "participant_id", "status", "started_at", "completed_at", "study_code")
                        }
                        for s in chunk
                    ],
                    "_links": {
                        "self": {"href": f"{base}&page={page}", "title": "Current"},
                        "next": {"href": f"{base}&page={page + 1}" if more else None, "title": "Next"},
                        "previous": {"href": f"{base}&page={page - 1}" if page > 1 else None, "title": "Previous"},
                        "last": {"href": f"{base}&page={max(1, -(-len(items) // size))}", "title": "Last"},
                    },
                    "meta": {"count": len(items)},
                }
            )

        @app.get(f"{PREFIX}/submissions/<submission_id>/")
        def submission(submission_id):
            s = fake.submissions.get(submission_id) or abort(404)
            fake._list_due()
            return jsonify(
                {
                    "id": s["id"],
                    "study_id": s["study_id"],
                    "participant": s["participant_id"],
                    "status": s["status"],
                    "started_at": s["started_at"],
                    "completed_at": s["completed_at"],
                    "entered_code": s["entered_code"],
                    "bonus_payments": list(s["bonus_payments"]),
                }
            )

        @app.post(f"{PREFIX}/submissions/<submission_id>/transition/")
        def transition(submission_id):
            s = fake.submissions.get(submission_id)
            if s is None:
                return error(404, "Not found.")
            body = request.get_json()
            action = body.get("action")
            target = {"APPROVE": "APPROVED", "REJECT": "REJECTED"}.get(action)
            if target is None:
                return error(400, {"action": ["Not a valid action."]})
            if action == "REJECT":
                problems = {}
                if len(body.get("message") or "") < 100:
                    problems["message"] = ["Ensure this field has at least 100 characters."]
                if body.get("rejection_category") not in CATEGORIES:
                    problems["rejection_category"] = ["Not a valid choice."]
                if problems:
                    return error(400, problems)
            if s["status"] == target:  # the same transition again is ignored
                return jsonify({"id": s["id"], "status": s["status"]})
            if s["status"] != "AWAITING REVIEW":
                return error(400, f"Cannot transition from {s['status']} to {target}.")
            s["status"] = target
            return jsonify({"id": s["id"], "status": s["status"]})

        @app.post(f"{PREFIX}/submissions/bulk-approve/")
        def bulk_approve():
            body = request.get_json()
            if "submission_ids" in body:
                chosen = [fake.submissions.get(i) for i in body["submission_ids"]]
            else:
                pids = set(body.get("participant_ids") or ())
                chosen = [
                    s
                    for s in fake.submissions.values()
                    if s["study_id"] == body.get("study_id") and s["participant_id"] in pids
                ]
            for s in chosen:
                if s and s["status"] == "AWAITING REVIEW" and s["id"] not in fake.failing_approvals:
                    s["status"] = "APPROVED"
            return jsonify({"message": "The request to bulk approve has been made successfully."})

        @app.post(f"{PREFIX}/submissions/bonus-payments/")
        def create_bonuses():
            body = request.get_json()
            study_id = body.get("study_id")
            if study_id not in fake.studies:
                return error(400, {"study_id": ["Invalid study."]})
            rows, unknown = [], []
            taken = {s["participant_id"] for s in fake.submissions.values() if s["study_id"] == study_id}
            for line in filter(None, (body.get("csv_bonuses") or "").splitlines()):
                pid, _, amount = line.partition(",")
                try:
                    cents = int(Decimal(amount) * 100)
                except InvalidOperation:
                    return error(400, {"csv_bonuses": [f"Invalid amount {amount!r}."]})
                rows.append((pid, cents))
                if pid not in taken:
                    unknown.append(pid)
            if unknown:
                return error(400, [f"Participant {pid} did not take part in this study." for pid in unknown])
            batch_id = uuid.uuid4().hex[:24]
            amount = sum(cents for _, cents in rows)
            fees = round(amount * Decimal("0.333"))
            fake.batches[batch_id] = {"study_id": study_id, "rows": rows, "paid": 0}
            return jsonify(
                {
                    "id": batch_id,
                    "study": study_id,
                    "amount": amount,
                    "fees": fees,
                    "vat": 0,
                    "total_amount": amount + fees,
                }
            ), 201

        @app.post(f"{PREFIX}/bulk-bonus-payments/<batch_id>/pay/")
        def pay(batch_id):
            batch = fake.batches.get(batch_id)
            if batch is None:
                return error(404, "Not found.")
            batch["paid"] += 1  # like Prolific's: a second call pays again
            for pid, cents in batch["rows"]:
                for s in fake.submissions.values():
                    if s["study_id"] == batch["study_id"] and s["participant_id"] == pid:
                        if fake.payment_delay:
                            fake.unlisted.append((fake.clock() + fake.payment_delay, s["id"], cents))
                        else:
                            s["bonus_payments"].append(cents)
                        break
            return jsonify({}), 202

        return app
