"""Simulated participants (asyncio + aiohttp, on uvloop) doing what the study page does.

Two ways to drive them: as fast as the server lets them (pacing 0: each save is sent when the last one is
answered, which measures capacity; latency then follows from Little's law, participants ÷ rate), or paced
(Locust's constant pacing): a participant sends its k-th save k × pacing seconds after its first, or at once if
it is behind, so N participants offer N ÷ pacing saves per second and latency shows how the server copes with
that load. Each one enters through the Prolific link, loads the page and its state, reports its screen, answers
consent and demographics, saves its 30 trials one by one (a new uuid4 trial id each, resent unchanged on retry as
sync.js does), and completes. Connection failures, 5xx, 408 and 429 are retried with backoff like sync.js; every other
answer is final. Every acknowledged save (200/201) is recorded so the database can be checked afterwards."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass, field

import aiohttp
import uvloop

RETRY_STATUSES = {408, 429, 500, 502, 503, 504}
PLAN_LENGTH = 30  # study3's trials per participant
DEMOGRAPHICS = {"gender": "female", "age": 34, "education": "masters", "nationality": "Chilean"}
ENVIRONMENT = {"screen_width": 1920, "screen_height": 1080, "window_width": 1536, "window_height": 864}


@dataclass
class Tally:
    """What one client process saw."""

    save_latencies: list[tuple[float, float]] = field(default_factory=list)  # (answered at, seconds) per answer
    save_times: list[float] = field(default_factory=list)  # when each acknowledged save was acknowledged
    window: float | None = None  # when the measured window opens (time.monotonic); None: at the first save
    acknowledged: list[tuple[str, int, str]] = field(default_factory=list)  # (token, trial_index, trial_id)
    retries: int = 0  # requests resent after a connection error or a retryable status
    errors: list[str] = field(default_factory=list)  # final non-success answers (a participant left stuck)
    started: int = 0
    completed: int = 0


class Participant:
    def __init__(self, http: aiohttp.ClientSession, base: str, pid: str, tally: Tally, deadline: float):
        self.http, self.base, self.pid, self.tally, self.deadline = http, base, pid, tally, deadline

    async def request(self, method: str, path: str, body=None, expect=(200,), redirects=True):
        """Send until an answer that is not retryable arrives (or the hard deadline passes)."""
        delay = 0.05
        while True:
            start = time.perf_counter()
            try:
                async with self.http.request(method, self.base + path, json=body, allow_redirects=redirects) as r:
                    # A stored trial's answer is not needed (the status says it); every other body is read.
                    payload = (
                        await r.read()
                        if r.status in (200, 201) and path.endswith("/trials")
                        else await (r.json() if r.content_type == "application/json" else r.text())
                    )
                    if r.status not in RETRY_STATUSES:
                        return r.status, payload, r.headers, time.perf_counter() - start
            except (TimeoutError, aiohttp.ClientError):
                pass
            if time.monotonic() > self.deadline:
                raise RuntimeError(f"{method} {path}: no answer before the hard deadline")
            self.tally.retries += 1
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 2.0)

    async def run(self, pacing: float):
        tally = self.tally
        tally.started += 1
        status, _, headers, _ = await self.request(
            "GET", f"/study/study3?PROLIFIC_PID={self.pid}&STUDY_ID=load&SESSION_ID=s{self.pid}", redirects=False
        )
        if status != 303:
            tally.errors.append(f"entry {status}")
            return
        page = headers["Location"]
        token = page.rsplit("/", 1)[1]
        api = f"/api/sessions/{token}"
        await self.request("GET", page.removeprefix(self.base))
        _, state, _, _ = await self.request("GET", api)
        await self.request("PUT", f"{api}/environment", ENVIRONMENT)
        for name, answers in (("consent", {"agreed": True}), ("demographics", DEMOGRAPHICS)):
            status, body, _, _ = await self.request("PUT", f"{api}/surveys/{name}", {"answers": answers})
            if status != 200:
                tally.errors.append(f"survey {name} {status} {body}")
                return
        loop = asyncio.get_running_loop()
        first = loop.time() + random.uniform(0, pacing)  # spread the participants over one interval
        for item in state["plan"]:
            if pacing:
                await asyncio.sleep(max(0.0, first + item["index"] * pacing - loop.time()))
            trial = {
                "trial_id": str(uuid.uuid4()),
                "trial_index": item["index"],
                "stimulus_id": item["stimulus_id"],
                "response": {"percent": round(random.uniform(5, 95), 1)},
                "rt_ms": random.randint(800, 9000),
                "client_time": "2026-11-22T17:00:00.000Z",
            }
            status, body, _, latency = await self.request("POST", f"{api}/trials", trial)
            tally.save_latencies.append((time.monotonic(), latency))
            if status in (200, 201):
                tally.acknowledged.append((token, item["index"], trial["trial_id"]))
                tally.save_times.append(time.monotonic())
            else:
                tally.errors.append(f"save {status} {body}")
                return
        status, body, _, _ = await self.request("POST", f"{api}/complete", {})
        if status == 200 and body.get("status") == "completed":
            tally.completed += 1
        else:
            tally.errors.append(f"complete {status} {body}")


async def crowd(
    base: str, concurrency: int, seconds: float, prefix: str, pacing: float = 0.0, tally: Tally | None = None
) -> Tally:
    """Keep `concurrency` participants busy for `seconds`: whenever one completes, the next one enters. Then no one
    new enters and those inside finish (hard stop at 4 × seconds + 240 s: a load test must end by itself).

    `pacing`: seconds between one participant's saves (0: as fast as the server answers). Unpaced, the first
    entries arrive all at once, as when a study goes live, and the window opens with the first acknowledged save.
    Paced, the seats start one after another over one participant's length (PLAN_LENGTH saves), so participants are
    spread over the study as in a running one, not entering and finishing in waves; the window opens once every
    seat is taken."""
    tally = tally or Tally()
    started = time.monotonic()
    ramp = PLAN_LENGTH * pacing
    if pacing:
        tally.window = started + ramp
    deadline = started + ramp + 4 * seconds + 240

    def entering() -> bool:
        opened = tally.window or (tally.save_times[0] if tally.save_times else None)
        return time.monotonic() < (opened + seconds if opened else started + seconds + 120)

    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=30)
    numbers = iter(range(10**9))

    async def seat(http, number):
        await asyncio.sleep(ramp * number / concurrency)
        errors = len(tally.errors)
        # A participant stuck on a final error leaves the seat empty: a broken server must not spin the loop.
        while entering() and len(tally.errors) == errors:
            await Participant(http, base, f"{prefix}{next(numbers)}", tally, deadline).run(pacing)

    # No cookie jar: participants carry their token in the URL, and filtering cookies costs the shared cores.
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()) as http:
        seats = [asyncio.create_task(seat(http, n)) for n in range(concurrency)]
        done = await asyncio.gather(*seats, return_exceptions=True)
    tally.errors += [f"participant aborted: {exc}" for exc in done if isinstance(exc, BaseException)]
    return tally


def crowd_in_process(args) -> Tally:
    """Entry point for a client process (multiprocessing). uvloop's event loop costs the shared cores less."""
    return uvloop.run(crowd(*args))
