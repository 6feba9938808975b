"""Keeping database passwords out of everything meks prints.

A database URL may carry a password in two places: its user information
(``postgresql+psycopg://user:PASSWORD@host/db``) and its query (``?password=PASSWORD``, or
``sslpassword``). ``shown`` gives a location fit to print, and ``scrub`` takes any text (an
error message, a driver's exception) and removes those passwords from it: the ones the
location holds, however they are spelled (as typed, percent-decoded or encoded), and
anything shaped like a password in a URL. Plain Python, so that the error path can use it
without opening a database.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

MASK = "***"
SECRET_KEYS = ("password", "sslpassword")  # query keys whose value is a secret

# user:PASSWORD@ in a URL, the password up to the first '@' (as SQLAlchemy reads it); the
# first '@' or the last one before the path is the end, for finding the secrets a location
# holds.
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.\-]*://[^:/?#@\s]*):"
                       r"(?P<secret>[^@\s]*)@")
_USERINFO_LAST = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.\-]*://[^:/?#@\s]*):"
                            r"(?P<secret>[^/?#\s]*)@")
# ?password=SECRET (or quoted): to the next '&', space or quote, less the punctuation
# that ends a sentence.
_QUERY = re.compile(r"(?P<head>(?:^|[?&;\s])(?:ssl)?password\s*=\s*)"
                    r"(?P<secret>'[^']*'|\"[^\"]*\"|[^&#\s'\"]*?)"
                    r"(?=[.,:;)]*(?:[&#\s'\"]|$))", re.IGNORECASE)
# Shorter secrets are masked where a URL holds them, but not searched for in free text,
# where replacing every 'a' or 'on' would make the message unreadable.
MIN_SEARCHED = 4


def secrets(location: str) -> list[str]:
    """The passwords ``location`` holds, each as written and percent-decoded; none for a
    path. Works on text that is not a valid URL too."""
    if "://" not in location:  # a path, or a keyword connection string: password=...
        found = [m.group("secret").strip("'\"") for m in _QUERY.finditer(location)]
        return _spellings(found)
    found = [m.group("secret") for pattern in (_USERINFO, _USERINFO_LAST, _QUERY)
             for m in pattern.finditer(location)]
    try:
        from sqlalchemy.engine import make_url

        url = make_url(location)
        found += [str(url.password or "")]
        found += [value for key, value in url.query.items() if key.lower() in SECRET_KEYS
                  for value in ((value,) if isinstance(value, str) else value)]
    except Exception:  # not a URL SQLAlchemy reads: the patterns above are all there is
        pass
    return _spellings(found)


def _spellings(found: list[str]) -> list[str]:
    spelled = set()
    for secret in found:
        if secret:
            spelled.update({secret, unquote(secret), unquote(secret.replace("+", " ")),
                            quote(unquote(secret), safe="")})
    return sorted(spelled, key=len, reverse=True)  # longest first: no half-replaced secret


def scrub(text: str, location: str | None = None) -> str:
    """``text`` with every password removed: those of ``location`` wherever they appear,
    and any password written into a URL or as ``password=...``."""
    for secret in secrets(location or ""):
        if len(secret) >= MIN_SEARCHED:
            text = text.replace(secret, MASK)
    for pattern in (_USERINFO_LAST, _USERINFO):
        text = pattern.sub(lambda m: f"{m.group('head')}:{MASK}@", text)
    return _QUERY.sub(lambda m: f"{m.group('head')}{MASK}", text)


def shown(location: str) -> str:
    """A database URL fit to print: its passwords masked, the rest as given."""
    try:
        from sqlalchemy.engine import make_url

        url = make_url(location)
        query = {key: (MASK if key.lower() in SECRET_KEYS else value)
                 for key, value in url.query.items()}
        text = url.set(query=query).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: mask what looks like a password
        text = location
    return scrub(text, location)


def reason(exc: BaseException, location: str | None = None) -> str:
    """The first line of what went wrong, without any password."""
    orig = getattr(exc, "orig", None)  # a database driver's own exception, when there is one
    text = str(orig if orig is not None else exc)
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return scrub(first, location)
