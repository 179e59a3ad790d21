"""Secrets kept out of everything biasmirror stores or prints: credentials in URLs and options named like keys.

A base URL may carry a password (`http://user:password@host/v1`) or a key in its query string
(`...?api_key=...`); a backend option may be an API key. Whatever is recorded (a run's parameters in
inference.runs, a failure's message in inference.llm_failures) or printed goes through `public_url` or
`scrub`, so that the published warehouse, which every reader opens, never holds one.
"""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

MASK = "***"
# query-parameter names that hold a secret (key, api_key, access_token, X-Amz-Signature, password, sig, ...)
SECRET_PARAMETER = re.compile(r"key|token|secret|passw|pwd|auth|signature|^sig$|credential|session", re.IGNORECASE)
# backend option names that hold a secret (api_key, token, password); not max_tokens, a decoding parameter
SECRET_OPTION = re.compile(r"key|(?<!max_)token|secret|passw", re.IGNORECASE)
# a URL inside a longer text (a message): scheme://... up to white space or a quote
URL_IN_TEXT = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]+")


def public_url(url: str) -> str:
    """`url` without its user:password@ part and with the value of every query parameter named like a secret
    replaced by ***. A text that does not parse as a URL is returned unchanged."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1] if "@" in parts.netloc else parts.netloc
    query = parts.query
    if query:
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
        if any(SECRET_PARAMETER.search(name) for name, _ in pairs):
            query = urllib.parse.urlencode([(name, MASK if SECRET_PARAMETER.search(name) else value)
                                            for name, value in pairs], safe="*")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, query=query))


def scrub_text(text: str) -> str:
    """`text` with every URL in it made public (`public_url`)."""
    if "://" not in text:
        return text
    return URL_IN_TEXT.sub(lambda match: public_url(match.group(0)), text)


def scrub(value: Any) -> Any:
    """A copy of `value` (dicts, lists, tuples, strings; anything else as is) with every URL in a string made
    public (`public_url`)."""
    if isinstance(value, dict):
        return {key: scrub(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(scrub(item) for item in value)
    if isinstance(value, str):
        return scrub_text(value)
    return value


def public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Backend options as they may be recorded: the value of an option named like a secret is ***, URLs public."""
    return {key: (MASK if SECRET_OPTION.search(key) else scrub(value)) for key, value in options.items()}
