
const WELCOME_INSTRUCTION =
    "<h1>Dear participant,</h1>"                                        +
    "<h2>"                                                              +
        "Welcome in this experiment."                                   +
    "</h2>"                                                             +
    "<p>"                                                               +
        "First you will see some information about the experiment and " +
        "what type of data we will be collecting and why. You can "     +
        "then consent to participate in the experiment (or not, in "    +
        "which case the experiment will terminate immediately and no "  +
        "data will be saved)."                                          +
    "</p>"                                                              +
    "<p>"                                                               +
        "Next, you will fill out a short questionnaire. After the "     +
        "questionnaire you will get some more instructions on what to " +
        "do."                                                           +
    "</p>"                                                              +
    "<p>"                                                               +
        "Press the spacebar to continue."                               +
    "</p>";

const PRE_PRACTICE_INSTRUCTION =
    "<h1>"                                                              +
        "Task instructions"                                            +
    "</h1>"                                                             +
    "<p>"                                                               +
        "You are now going to see sentences on the screen, one after "  +
        "the other. Each sentence is broken up into words. You can "    +
        "reveal the sentence word-by-word by repeatedly hitting "       +
        "the spacebar. "                                                +
        "This way you will go through each sentence. Your task is to "  +
        "<i>silently</i> read each sentence as quickly as possible."    +
    "</p>"                                                              +
    "<p>"                                                               +
        "Sometimes a statement about a sentence will come up. You then "+
        "will have to indicate whether the statement is correct or "    +
        "not. Therefore it is important that you really <i>read</i> "   +
        "each sentence."                                                +
    "<p>"                                                               +
        "First you will read some practice sentences. These are not "   +
        "part of the actual experiment."                                +
    "</p>"                                                              +
    "<p>"                                                               +
        "<i>Hit the spacebar when ready to start.</i>"                  +
    "</p>";

const PRE_TEST_INSTRUCTION =
    "<p>"                                                               +
        "End of the practice part."                                     +
    "</p>"                                                              +
    "<p>"                                                               +
        "<i>Press the spacebar to continue.</i>"                        +
    "</p>";

const POST_TEST_INSTRUCTION =
    "<h1>End of the experiment.</h1>"                                   +
    "<h2>Many thanks for participating</h2>";

const FINISHED_NO_CONSENT =
    "<h1>The experiment finished, because no consent was given</h1>"    +
    "<p>You can close this tab now.</p>";

const FEEDBACK_PREAMBLE = `
    <p>The experiment is now complete. <strong>Please do not close this window yet.</strong></p>
    `;

const FEEDBACK_PROMPT = `
    Do you have any further comments or feedback about the experiment? If not, please leave empty
    `;
