"""Errors the mock LLM returns on the wire, shaped like the OpenAI API's.

The OpenAI API answers a bad request with an HTTP status and a body of the form
``{"error": {"message", "type", "param", "code"}}``. Raising :class:`MockAPIError`
anywhere inside the mock turns into exactly that, so the ``openai`` SDK raises its
own ``openai.BadRequestError`` (400), ``openai.RateLimitError`` (429) or
``openai.InternalServerError`` (500) in the learner's code, as it would against the
real service.
"""
from __future__ import annotations

from typing import Any

_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    404: "invalid_request_error",
    429: "rate_limit_exceeded",
    500: "server_error",
    503: "server_error",
}


class MockAPIError(Exception):
    """An error response of the mock LLM (OpenAI error body + HTTP status).

    Args:
        message: human-readable explanation, phrased like the real API's.
        status: HTTP status code (400 for a malformed request, 429, 500...).
        param: the request field at fault, e.g. ``"messages.[2].role"``, or None.
        code: a machine-readable code such as ``"missing_required_parameter"``.
        headers: extra response headers, e.g. ``{"retry-after": "1"}`` for a 429.

    Example:
        >>> MockAPIError("Missing required parameter: 'messages'.", param="messages",
        ...              code="missing_required_parameter").body()["error"]["type"]
        'invalid_request_error'
    """

    def __init__(
        self,
        message: str,
        *,
        status: int = 400,
        param: str | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.param = param
        self.code = code
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        """The JSON body the API sends: ``{"error": {message, type, param, code}}``."""
        return {
            "error": {
                "message": self.message,
                "type": _TYPES.get(self.status, "invalid_request_error"),
                "param": self.param,
                "code": self.code,
            }
        }

    def __repr__(self) -> str:
        return f"MockAPIError({self.status}, {self.message!r}, param={self.param!r})"
