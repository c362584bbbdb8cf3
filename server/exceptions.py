"""The domain's errors: plain exceptions whose message names what is wrong (the key, row and column, option). The
edges turn them into answers: the CLI into click errors, the web layer into 4xx pages or JSON. Task packages, the
study loader, the importers and the analysis raise them; none of them knows click or HTTP."""

from __future__ import annotations


class ConfigError(ValueError):
    """A study file asks for something the task type cannot do; the message names the key. `problems`: each problem
    on its own (one, unless a task type found several at once)."""

    @property
    def problems(self) -> list[str]:
        return [str(self)]


class ManifestError(ValueError):
    """A row of an imported stimulus manifest is invalid; `column` names the offending column."""

    def __init__(self, column: str, message: str):
        super().__init__(message)
        self.column = column


class ResponseError(ValueError):
    """A participant's response is invalid; `field` names the offending field for the 4xx answer."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


class ImportRefused(ValueError):
    """A file (stimulus manifest, model predictions) was not imported, and nothing of it was written; the message
    says why. `problems` lists every reason found, when they were gathered one by one (:meth:`listing`)."""

    MAX_REPORTED = 20

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = problems or [message]

    @classmethod
    def listing(cls, problems: list[str]) -> ImportRefused:
        """ "nothing imported:" and the first MAX_REPORTED problems, one a line."""
        shown = problems[: cls.MAX_REPORTED]
        more = f"\n  … and {len(problems) - cls.MAX_REPORTED} more" if len(problems) > cls.MAX_REPORTED else ""
        return cls("nothing imported:\n  " + "\n  ".join(shown) + more, problems)


class AnalysisError(ValueError):
    """A study cannot be analysed as asked (unknown study, no analysis for its task type, an option it does not
    use, no completed participants, input the analysis refuses); the message says which."""


class APIError(Exception):
    """A participant API request cannot be served: the HTTP status, a stable error code and a message, plus extra
    fields for the JSON answer (e.g. `field`). server/web/handlers.py turns it into `{"error": code, ...}`."""

    def __init__(self, status: int, code: str, message: str, **extra):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra
