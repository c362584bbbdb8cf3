"""Every submitted answer is stored before any feedback is shown (issue #21): on each demo study, in headless
Chromium, the participant submits the first trial and the page is reloaded at once, without waiting for the
network. The answer was queued in localStorage at the submission, so the reloaded page sends it, stores it exactly
once as given, and resumes at the next trial. On study3 the first trial is practice: the reload comes while the
feedback shows the correct value, which must not bring the trial back to be answered again knowing it."""

import pytest
from playwright.sync_api import expect

from tests.helpers import DEMOGRAPHICS, enter
from tests.test_hive_e2e import answer_trial as answer_hive
from tests.test_hive_e2e import stored

# The questionnaires each study asks before its task, answered through the API so the page starts at instructions.
BEFORE_TASK = {
    "demographics": DEMOGRAPHICS,
    "hive_demographics": {"ml_experience": 2},
    "hive_understanding_1": {"understanding": 2},
}
HIVE = ("hive-agreement", "hive-distinction", "hive-output-prediction", "hive-prototree")
# The buttons between the questionnaires and the first trial: the instruction pages, then HIVE's two examples.
STEPS = dict.fromkeys(("study3", "two4two-demo", "sketch-demo"), ("Next >", "Next >"))
STEPS.update(dict.fromkeys(HIVE, ("Next >", "Next >", "Continue", "Continue")))


def answer_ratio(page, slug, index):
    expect(page.locator(".sh-ratio-form button")).to_be_enabled()  # the chart has loaded
    page.locator("#sh-ratio-input").fill("11")
    page.locator(".sh-ratio-form button").click()
    expect(page.locator(".sh-feedback")).to_contain_text("The correct answer was")  # practice: the truth is shown
    return {"percent": 11.0}


def answer_rating(page, slug, index):
    page.locator(".sh-hr-point input[value='6']").check()
    page.get_by_role("button", name="Next").click()
    return {"rating": 6}


def answer_sketch(page, slug, index):
    first, second = (page.locator(".sh-guess input").nth(i) for i in range(2))
    expect(first).to_be_enabled()  # sketch shown and vocabulary loaded
    first.fill("ladder")
    second.fill("cup")
    page.get_by_role("button", name="Next").click()
    return ["ladder", "cup"]  # the server adds each label to its id


# slug -> (answer the trial on screen and return what must be stored; the trial's image or text, and what the
# plan item says it is, to check that the page resumes at the next trial)
TRIALS = {
    "study3": (answer_ratio, ".sh-chart", "src", lambda item: item["stimulus_url"]),
    "two4two-demo": (answer_rating, ".sh-hr-statement", "text", lambda item: item["presented"]["statement_text"]),
    "sketch-demo": (answer_sketch, ".sh-sketch-image", "src", lambda item: item["stimulus_url"]),
    **{slug: (answer_hive, ".sh-hive-photo img", "src", lambda item: item["photo_url"]) for slug in HIVE},
}


@pytest.mark.parametrize("slug", list(TRIALS))
def test_answer_submitted_then_reload_is_stored_once(app, client, live_server, page, slug):
    token = enter(client, slug)
    state = client.get(f"/api/sessions/{token}").get_json()
    for step in state["flow"][: state["flow"].index("task")]:
        if step in state["surveys"]:
            response = client.put(f"/api/sessions/{token}/surveys/{step}", json={"answers": BEFORE_TASK[step]})
            assert response.status_code == 200, response.get_json()
    page.goto(f"{live_server}/study/{slug}/s/{token}")
    for button in STEPS[slug]:
        page.get_by_role("button", name=button).click()

    answer, selector, attribute, planned = TRIALS[slug]
    expected = answer(page, slug, 0)
    page.reload()  # at once: the answer lives in localStorage from the submission on

    page.wait_for_selector("#jspsych-content")  # the page has sent its queue and read the session's state
    trials = stored(slug)
    assert [t.trial_index for t in trials] == [0]
    response = trials[0].response
    if slug == "sketch-demo":
        response = [guess["label_id"] for guess in response["guesses"]]
    assert response == expected

    expect(page.get_by_role("heading", name="Welcome back")).to_be_visible()
    page.get_by_role("button", name="Continue").click()
    shown = planned(state["plan"][1])
    if attribute == "text":
        expect(page.locator(selector)).to_have_text(shown)
    else:
        expect(page.locator(selector)).to_have_attribute(attribute, shown)
    page.wait_for_function(
        "() => Object.keys(localStorage).every((k) => "
        "!k.endsWith(':queue') || JSON.parse(localStorage.getItem(k)).length === 0)"
    )
    assert len(stored(slug)) == 1
