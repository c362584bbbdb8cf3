"""Accessibility in headless Chromium (issue #27 part 2): every task type taken with the keyboard alone (Tab to
reach, Enter or Space to act, arrows in radio groups; no mouse), and axe-core (node_modules/axe-core, pinned in
package.json, injected here and never served) run on every screen the walk passes and on every researcher dashboard
page. Each walk shares its page loads between the keyboard and axe checks, and writes screenshots of the trial
screens and dashboard pages to test-screenshots/ for a person to look at. To stay lean (CI time), the longer tasks
answer a few trials with the keyboard and the rest through the JSON API, then reload to reach the end screens; the
visual-search experiment stops after three displays; and the PostgreSQL pass leaves this module out (any_db:
nothing here depends on the database's backend)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from server.db import db
from server.models import ParticipantSession
from server.researchers.auth import create_researcher
from tests.helpers import enter, trial_body

pytestmark = pytest.mark.any_db

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "test-screenshots"

# Moderate findings still allowed, each with why (issue #27: at most three). Serious and critical ones never are.
ALLOWED: dict[str, str] = {}


@pytest.fixture
def audit(browser):
    """A page whose context lets the test inject axe (bypass_csp: the pages' CSP allows only their own scripts),
    and the audit that checks it; the test fails at the end with every finding of every screen."""
    context = browser.new_context(viewport={"width": 1366, "height": 900}, bypass_csp=True)
    audit = Audit(context.new_page())
    yield audit
    context.close()
    audit.assert_clean()


class Audit:
    def __init__(self, page):
        self.page = page
        self.findings: dict[str, list[str]] = {}  # axe rule → "screen: impact: element" for each violation

    def check(self, screen: str, shot: bool = False) -> None:
        """Run axe on what the page shows now (every frame: a researcher's experiment runs in an iframe, so axe's
        script goes into each), and remember its violations under `screen`."""
        for frame in self.page.frames:
            if not frame.evaluate("() => typeof axe !== 'undefined'"):
                frame.add_script_tag(path=str(AXE))
                # The experiment's frame has an opaque origin (sandboxed), which axe's frame messages would refuse.
                frame.evaluate("() => axe.configure({allowedOrigins: ['<unsafe_all_origins>']})")
        result = self.page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
        for violation in result["violations"]:
            for node in violation["nodes"]:
                self.findings.setdefault(violation["id"], []).append(
                    f"{screen}: {violation['impact']}: {node['target']}"
                )
        if shot:
            SHOTS.mkdir(exist_ok=True)
            self.page.screenshot(path=str(SHOTS / f"{screen}.png"), full_page=True)

    def assert_clean(self) -> None:
        assert len(ALLOWED) <= 3
        bad = {
            rule: where
            for rule, where in self.findings.items()
            if rule not in ALLOWED or any(": serious: " in w or ": critical: " in w for w in where)
        }
        assert not bad, "\n".join(f"{rule}: {w}" for rule, where in bad.items() for w in where)


# Keyboard only: Tab until an element has focus, and act on it with keys.


def tab_to(page, target, limit: int = 60) -> None:
    """Press Tab until `target` has focus (fails if Tab never reaches it) and check that the focus shows."""
    for _ in range(limit):
        if target.evaluate("el => el.ownerDocument.activeElement === el && el.ownerDocument.hasFocus()"):
            style = target.evaluate("el => getComputedStyle(el).outlineStyle + ' ' + getComputedStyle(el).boxShadow")
            assert not style.startswith("none none"), f"focus on {target} does not show"
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab does not reach {target}")


def press(page, target, key: str = "Enter") -> None:
    tab_to(page, target)
    page.keyboard.press(key)


def type_into(page, target, text: str) -> None:
    tab_to(page, target)
    page.keyboard.type(text)


def choose(page, scope, name: str, value: str) -> None:
    """Pick a radio button: Tab into its group (focus lands on the first, or the checked one), then arrows."""
    radios = scope.locator(f"input[type=radio][name='{name}']")
    tab_to(page, radios.first)
    values = radios.evaluate_all("els => els.map((e) => e.value)")
    page.keyboard.press("Space")
    for _ in range(values.index(value)):
        page.keyboard.press("ArrowDown")
    expect(scope.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()


def button(scope, name: str):
    return scope.get_by_role("button", name=name, exact=True)


def token_of(page) -> str:
    return re.search(r"/s/([^/?#]+)", page.url).group(1)


def finish_by_api(client, token: str, response=lambda item: {"percent": 50.0}, count: int | None = None) -> None:
    """Store the trials the keyboard did not answer (all, or the next `count`) through the JSON API, as another device
    of this participant would; the page's next load resumes after them."""
    state = client.get(f"/api/sessions/{token}").get_json()
    for item in [i for i in state["plan"] if i["index"] not in state["stored_indexes"]][:count]:
        body = trial_body(item, response=response(item))
        assert client.post(f"/api/sessions/{token}/trials", json=body).status_code == 201


def consent(page, audit, slug):
    audit.check(f"{slug}-consent")
    press(page, button(page, "I agree"))


def demographics(page, audit, slug):
    expect(page.get_by_role("heading", name="About you")).to_be_visible()
    audit.check(f"{slug}-demographics")
    choose(page, page, "gender", "female")
    type_into(page, page.locator("input[name=age]"), "29")
    choose(page, page, "education", "masters")
    type_into(page, page.locator("input[name=nationality]"), "Portuguese")
    press(page, button(page, "Continue"))


def instructions(page, audit, slug, headings):
    for n, heading in enumerate(headings):
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        if n == 0:
            audit.check(f"{slug}-instructions")
        press(page, button(page, "Next >"))


def test_study3_by_keyboard_then_the_dashboard(app, client, live_server, audit, runner):
    """Ratio estimation with the keyboard: consent, demographics, instructions, the practice with its feedback and
    the first test trial; then the results page. Then the researcher's dashboard pages about that session."""
    page, slug = audit.page, "study3"
    page.goto(f"{live_server}/study/{slug}")
    consent(page, audit, slug)
    demographics(page, audit, slug)
    instructions(page, audit, slug, ("Your task", "Practice first"))
    field = page.locator("#sh-ratio-input")
    for index in range(6):
        expect(page.locator(".sh-ratio-form button")).to_be_enabled()
        if index in (0, 5):
            audit.check(f"{slug}-trial" + ("" if index == 0 else "-test"), shot=index == 0)
        type_into(page, field, str(10 + index))
        page.keyboard.press("Enter")
        if index < 5:
            expect(page.locator(".sh-feedback")).to_contain_text("The correct answer was")
            if index == 0:
                audit.check(f"{slug}-feedback", shot=True)
            press(page, button(page, "Continue"))
        if index == 4:
            expect(page.get_by_role("heading", name="Practice complete")).to_be_visible()
            audit.check(f"{slug}-practice-complete")
            press(page, button(page, "Start"))
    page.wait_for_function(
        "() => Object.keys(localStorage).every((k) => !k.endsWith(':queue') || "
        "JSON.parse(localStorage.getItem(k)).length === 0)"
    )
    token = token_of(page)
    finish_by_api(client, token)
    page.reload()
    page.wait_for_url(re.compile(r"/results$"))
    audit.check(f"{slug}-results", shot=True)

    # The dashboard, about this session: its stored result first, as `flask analyze --store` leaves it.
    assert runner.invoke(args=["analyze", slug, "--store", "--n-boot", "200"]).exit_code == 0
    create_researcher("ada", "correct horse")
    person = db.session.scalars(db.select(ParticipantSession.id)).one()
    page.goto(f"{live_server}/")  # the address README gives a newcomer: the front page, then its login link
    audit.check("front-page", shot=True)
    press(page, page.get_by_role("link", name="log in"))
    page.wait_for_url(re.compile(r"/researcher/login$"))
    audit.check("dashboard-login", shot=True)
    type_into(page, page.locator("input[name=username]"), "ada")
    type_into(page, page.locator("input[name=password]"), "correct horse")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Studies")).to_be_visible()
    audit.check("dashboard-index", shot=True)
    study = f"{live_server}/researcher/studies/{slug}"
    for name, url in (
        ("study", f"{study}/"),
        ("participants", f"{study}/participants"),
        ("participant", f"{study}/participants/{person}"),
        ("replay", f"{study}/participants/{person}/replay"),
        ("results", f"{study}/results"),
        ("plan", f"{study}/plan"),
        ("balance", f"{study}/balance"),
        ("versions", f"{study}/versions"),
    ):
        page.goto(url)
        audit.check(f"dashboard-{name}", shot=True)
    page.goto(f"{live_server}/researcher/tokens")
    type_into(page, page.locator("input[name=name]"), "laptop")
    page.keyboard.press("Enter")
    expect(page.locator("table")).to_contain_text("laptop")
    audit.check("dashboard-tokens", shot=True)


def test_two4two_hypothesis_rating_by_keyboard(app, client, live_server, audit):
    """Hypothesis rating: the grid's scroll box is reachable and scrolls with the keys, a rating is picked with the
    arrows, Next acts on Enter; the other statements through the API, then the results page."""
    page, slug = audit.page, "two4two-demo"
    page.goto(f"{live_server}/study/{slug}")
    consent(page, audit, slug)
    demographics(page, audit, slug)
    instructions(page, audit, slug, ("Two kinds of animals", "The model's predictions"))
    page.wait_for_function("() => [...document.querySelectorAll('.sh-hr-cell')].every((i) => i.naturalWidth > 0)")
    audit.check(f"{slug}-trial", shot=True)
    grid = page.locator(".sh-hr-scroll")
    assert grid.evaluate("el => el.scrollHeight <= el.clientHeight")  # the whole grid in view: nothing hidden below
    # In a window too short for it, the grid scrolls: the keyboard reaches and scrolls it, and an arrow marks that
    # there is more below until its end is in view.
    page.set_viewport_size({"width": 1280, "height": 560})
    expect(grid).to_have_class(re.compile("sh-hr-more"))
    audit.check(f"{slug}-trial-short-window", shot=True)
    tab_to(page, grid)
    page.keyboard.press("End")
    expect(grid).not_to_have_class(re.compile("sh-hr-more"))
    page.set_viewport_size({"width": 1366, "height": 900})
    choose(page, page, "sh-hr-rating", "5")
    press(page, button(page, "Next"))
    expect(page.locator(".sh-hr-statement")).to_be_visible()  # the second statement
    page.wait_for_function(
        "() => Object.keys(localStorage).every((k) => !k.endsWith(':queue') || "
        "JSON.parse(localStorage.getItem(k)).length === 0)"
    )
    finish_by_api(client, token_of(page), lambda item: {"rating": 4})
    page.reload()
    page.wait_for_url(re.compile(r"/results$"))
    audit.check(f"{slug}-results", shot=True)


HIVE = ("hive-distinction", "hive-output-prediction", "hive-prototree", "hive-agreement")


def hive_answer(slug: str, item) -> dict:
    """A valid answer to a HIVE plan item, for the trials the keyboard leaves to the API."""
    if slug == "hive-agreement":
        matches = len(item["options"][0]["explanation"]) if item["similarity_ratings"] else 0
        return {"confidence": 3, **({"similarity": [2] * matches} if matches else {})}
    if slug == "hive-prototree":
        return {"decisions": ["present", "absent"], "confidence": 3}
    return {"choice": item["options"][0]["key"], "confidence": 3}


def hive_trial_by_keyboard(page, audit, slug, first: bool):
    """One HIVE trial with the keyboard; on the first, the method's description opened and closed with it too."""
    form = page.locator("form.sh-hive")
    expect(form.locator("button[type=submit]")).to_be_enabled()  # every image has loaded
    if first:
        audit.check(f"{slug}-trial", shot=True)
        press(page, button(page, "How the model works"))
        dialog = page.locator("dialog.sh-hive-description")
        expect(dialog).to_be_visible()
        audit.check(f"{slug}-description")
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
    if slug == "hive-agreement":
        for name in form.locator("fieldset[data-name^=similarity-]").evaluate_all(
            "fs => fs.map((f) => f.dataset.name)"
        ):
            choose(page, form, name, "2")
        choose(page, form, "confidence", "4")
    elif slug == "hive-prototree":
        choose(page, form, "node-root", "absent")
        choose(page, form, "node-absent", "present")
        expect(form.locator(".sh-hive-reached")).to_have_count(1)
        choose(page, form, "confidence", "3")
    else:
        key = form.locator("input[name=choice]").nth(2).get_attribute("value")
        choose(page, form, "choice", key)
        choose(page, form, "confidence", "5")
    press(page, form.locator("button[type=submit]"))


def test_hive_studies_by_keyboard(app, client, live_server, audit):
    """Each HIVE task kind's trial with the keyboard (the method's description opened from it, closed with Escape).
    Three of them start where the API left a participant after the first trial ("Welcome back"); the agreement study
    is walked from its link: consent, demographics, the method, the examples, understanding, two trials, then (its
    other trials through the API) understanding, score, tradeoff, feedback and results, screens every HIVE study
    shares."""
    page = audit.page
    for slug in HIVE[:3]:
        token = enter(client, slug)
        for name, answers in (
            ("hive_demographics", {"ml_experience": 2}),
            ("hive_understanding_1", {"understanding": 3}),
        ):
            assert client.put(f"/api/sessions/{token}/surveys/{name}", json={"answers": answers}).status_code == 200
        finish_by_api(client, token, lambda item, slug=slug: hive_answer(slug, item), count=1)
        page.goto(f"{live_server}/study/{slug}/s/{token}")
        press(page, button(page, "Continue"))  # "Welcome back"
        hive_trial_by_keyboard(page, audit, slug, first=True)
        expect(page.locator("form.sh-hive")).to_have_count(1)  # the next trial

    slug = "hive-agreement"
    page.goto(f"{live_server}/study/{slug}")
    consent(page, audit, slug)
    expect(page.get_by_role("heading", name="About you")).to_be_visible()
    audit.check(f"{slug}-demographics")
    choose(page, page, "ml_experience", "2")
    press(page, button(page, "Continue"))
    expect(page.get_by_role("heading", name="How the model decides")).to_be_visible()
    audit.check(f"{slug}-instructions")
    press(page, button(page, "Next >"))
    press(page, button(page, "Next >"))
    for example in (1, 2):
        expect(page.get_by_role("heading", name=f"Example {example} of 2")).to_be_visible()
        if example == 1:
            audit.check(f"{slug}-example", shot=True)
        press(page, button(page, "Continue"))
    expect(page.get_by_role("heading", name="Your understanding")).to_be_visible()
    audit.check(f"{slug}-understanding")
    choose(page, page, "understanding", "3")
    press(page, button(page, "Continue"))
    for n in range(2):
        hive_trial_by_keyboard(page, audit, slug, first=n == 0)
    expect(page.locator("form.sh-hive")).to_have_count(1)  # the third trial
    page.wait_for_function(
        "() => Object.keys(localStorage).every((k) => !k.endsWith(':queue') || "
        "JSON.parse(localStorage.getItem(k)).length === 0)"
    )
    finish_by_api(client, token_of(page), lambda item: hive_answer(slug, item))
    page.reload()
    for n in (2, 3):  # understanding after the task, and after the score
        expect(page.get_by_role("heading", name="Your understanding")).to_be_visible()
        choose(page, page, "understanding", "4")
        press(page, button(page, "Continue"))
        if n == 2:
            expect(page.locator(".sh-score")).to_contain_text("of 10 correctly")
            audit.check("hive-score", shot=True)
            press(page, button(page, "Continue"))
    expect(page.get_by_role("heading", name="Explanations or accuracy?")).to_be_visible()
    audit.check("hive-tradeoff", shot=True)
    for name, value in (("low_risk", "65"), ("medium_risk", "70"), ("high_risk", "90")):
        type_into(page, page.locator(f"input[name={name}]"), value)
    type_into(page, page.locator("textarea[name=reason]"), "Safety matters more when the stakes are high.")
    press(page, button(page, "Continue"))
    expect(page.get_by_role("heading", name="Feedback")).to_be_visible()
    audit.check("hive-feedback")
    press(page, button(page, "Continue"))
    page.wait_for_url(re.compile(r"/results$"))
    audit.check("hive-results", shot=True)


def test_sketch_recognition_by_keyboard(app, live_server, audit):
    """Sketch recognition with the keyboard: each sketch named by typing into the type-ahead box, Enter on the list,
    Tab to Next; through the score to the results page."""
    page, slug = audit.page, "sketch-demo"
    page.goto(f"{live_server}/study/{slug}")
    consent(page, audit, slug)
    instructions(page, audit, slug, ("Your task", "Up to three guesses"))
    for index in range(9):
        box = page.locator(".sh-guess input").first
        expect(box).to_be_focused()  # each sketch starts in the first box
        expect(page.locator(".sh-sketch-image")).to_have_js_property("complete", True)
        page.keyboard.type("ladder")
        expect(page.get_by_role("listbox")).to_be_visible()
        if index == 0:
            audit.check(f"{slug}-trial", shot=True)
        page.keyboard.press("Enter")
        expect(box).to_have_value("ladder")
        press(page, button(page, "Next"))
    expect(page.locator(".sh-score")).to_contain_text("named the drawn object", timeout=20_000)
    audit.check(f"{slug}-score", shot=True)
    press(page, button(page, "Continue"))
    page.wait_for_url(re.compile(r"/results$"))
    audit.check(f"{slug}-results")


def test_visual_search_own_experiment_by_keyboard(app, live_server, audit):
    """A researcher's own jsPsych experiment in its frame, with the keyboard: Tab goes from studyhive's page into the
    frame, through the instructions and several search displays."""
    page, slug = audit.page, "visual-search"
    page.goto(f"{live_server}/study/{slug}")
    consent(page, audit, slug)
    press(page, button(page, "Start"))
    page.wait_for_url("**/experiment")
    frame = page.frame_locator("#studyhive-experiment")
    expect(frame.locator("#jspsych-instructions-next")).to_be_visible()
    audit.check(f"{slug}-instructions")
    for _ in range(2):
        press(page, frame.locator("#jspsych-instructions-next"))
    for display in range(3):
        picture = frame.locator("img.search-display")
        assert picture.evaluate("img => img.decode().then(() => img.naturalWidth)") > 0
        if display == 0:
            audit.check(f"{slug}-trial", shot=True)
        press(page, button(frame, "T present"))
        picture.wait_for(state="detached")
