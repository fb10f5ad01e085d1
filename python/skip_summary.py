"""Record a skill's skip or deferral in a skip-summary file, from Python, in one import.

The owner side of the skip-summary contract (docs/owner.md in the skip-summary npm package, "From Python") for
skills written in Python: standard library only, Python 3.9+, one file you can vendor (`skip-summary helper python >
scripts/skip_summary.py`) or install with pip from a path (`pip install ./node_modules/skip-summary/python`). It speaks the same contract as the Node writer byte for
byte: the same validation rules and messages, the same workspace precedence, the same merge, the same size cap, the
same atomic write and the same lock protocol (docs/owner.md, "The lock"), so a Python emit and a Node emit racing on
one skill never lose an item.

    from skip_summary import emit_skip, skip_and_exit, SkipCollector

    emit_skip("tessl__check-cfps", step=3, reason="nightly budget spent", items=["cfp-103", "cfp-104"])
"""
from __future__ import annotations

import errno
import json
import math
import os
import random
import re
import socket
import stat
import sys
import time
import unicodedata
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, NoReturn, Optional, Tuple, Union

__all__ = [
    "emit_skip", "build_summary", "SkipCollector", "skip_and_exit", "classify_summary", "classify_summary_text",
    "merge_summaries", "fit_summary", "summary_text", "resolve_workspace", "summary_path", "full_skill_id", "normalise_reason", "reason_key_of",
    "Problem", "SkipSummaryError", "SummaryValidationError", "InvalidSkillIdError", "WorkspaceNotFoundError",
    "SummaryWriteError", "SCHEMA_VERSION", "SUMMARY_FIELDS", "OPTIONAL_SUMMARY_FIELDS", "REASON_MAX_LENGTH",
    "REASON_KEY_MAX_LENGTH", "SKILL_ID_PREFIX", "SKILL_ID_MAX_LENGTH", "MAX_SUMMARY_BYTES", "WORKSPACE_ENV",
    "DEFAULT_WORKSPACE", "EXIT_BLOCKED", "EX_USAGE", "EX_DATAERR", "EX_CANTCREAT", "EX_TEMPFAIL",
    "LOCK_TIMEOUT_SECONDS", "LOCK_STALE_SECONDS", "LOCK_CLOCK_SKEW_SECONDS",
]

# ---- the contract's constants (src/contract) ----
SCHEMA_VERSION = 1
SUMMARY_FIELDS = ("schema_version", "skill", "step", "reason", "items", "technical_failure", "occurred_at")
OPTIONAL_SUMMARY_FIELDS = ("reason_key", "links", "items_omitted", "reason_keys")
REASON_MAX_LENGTH = 500
REASON_KEY_MAX_LENGTH = 100
REASON_KEYS_MAX = 20
LINKS_MAX = 5
LINK_TITLE_MAX_LENGTH = 100
LINK_URL_MAX_LENGTH = 2000
SKILL_ID_PREFIX = "tessl__"
SKILL_ID_MAX_LENGTH = 128
#: Every reader refuses a bigger summary; writers cut items to stay within it.
MAX_SUMMARY_BYTES = 64 * 1024
WORKSPACE_ENV = "SKIP_SUMMARY_WORKSPACE"
DEFAULT_WORKSPACE = "/workspace/group"
NANOCLAW2_WORKSPACE = "/workspace/agent"
PROJECT_DIR_ENV = "CLAUDE_PROJECT_DIR"
CLAUDE_CODE_ENV = "CLAUDECODE"
SUMMARY_FILE_PREFIX = ".skip-summary-"
SUMMARY_FILE_SUFFIX = ".json"
# Exit codes (docs/exit-codes.md): 2 blocked, then BSD sysexits.
EXIT_BLOCKED = 2
EX_USAGE = 64
EX_DATAERR = 65
EX_CANTCREAT = 73
EX_TEMPFAIL = 75
# The lock (docs/owner.md, "The lock").
LOCK_TIMEOUT_SECONDS = 10.0
LOCK_STALE_SECONDS = 30.0
LOCK_DEAD_HOLDER_MIN_AGE_SECONDS = 1.0
# A lock dated further ahead of our clock than this tells nothing by its age: its record decides.
LOCK_CLOCK_SKEW_SECONDS = 2.0
_LOCK_MAX_DELAY_MS = 50
_LOCK_RECORD_MAX_BYTES = 4096

_MAX_SAFE_INTEGER = 2 ** 53 - 1
_ELLIPSIS = "\u2026"
_JOIN = "; "


# ---- errors: data first, the same words as the Node side ----
class Problem(NamedTuple):
    """One problem with a summary: the field path (`items[2]`, or `(root)`) and plain words."""
    path: str
    message: str


class SkipSummaryError(Exception):
    """Base of every error this module raises; `exit_code` is the sysexits code `skip-summary emit` would use."""
    exit_code = EX_CANTCREAT


class SummaryValidationError(SkipSummaryError, ValueError):
    exit_code = EX_DATAERR
    code = "INVALID_SUMMARY"

    def __init__(self, problems: Iterable[Problem]):
        self.problems = [Problem(*p) for p in problems]
        super().__init__("invalid skip summary: " + format_problems(self.problems))


class InvalidSkillIdError(SkipSummaryError, ValueError):
    exit_code = EX_DATAERR
    code = "INVALID_SKILL_ID"

    def __init__(self, skill_id: Any, problem: str):
        self.id = skill_id
        self.problem = problem
        super().__init__("invalid skill id %s: %s" % (_js_json(skill_id), problem))


class WorkspaceNotFoundError(SkipSummaryError):
    exit_code = EX_USAGE
    code = "NO_WORKSPACE"

    def __init__(self) -> None:
        super().__init__(
            "no workspace: pass --workspace DIR or set %s=DIR (no %s either, not run by Claude Code, and neither %s nor the default, %s, exists here)"
            % (WORKSPACE_ENV, PROJECT_DIR_ENV, NANOCLAW2_WORKSPACE, DEFAULT_WORKSPACE)
        )


class SummaryWriteError(SkipSummaryError):
    """The summary cannot be written. `kind`: not-regular-file, unrecognised-version, invalid-existing, unwritable,
    lock-timeout or lock-stale; `path`: the file concerned."""
    exit_code = EX_CANTCREAT
    code = "SUMMARY_WRITE_FAILED"

    def __init__(self, kind: str, path: str, message: str, errno_name: Optional[str] = None):
        self.kind = kind
        self.path = path
        #: The errno behind an `unwritable` refusal (EROFS, EACCES, ...), when there was one.
        self.errno_name = errno_name
        super().__init__(message)


def format_problems(problems: Iterable[Problem]) -> str:
    return "; ".join("%s: %s" % (p.path, p.message) for p in problems)


# ---- JavaScript-compatible text: lengths, JSON, numbers ----
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def _js_json(value: Any, indent: Optional[int] = None, compact: bool = False) -> str:
    """JSON.stringify's output: UTF-8 text, lone surrogates escaped, integral floats written as integers."""
    text = json.dumps(_js_numbers(value), ensure_ascii=False, indent=indent, separators=(",", ":") if compact else None,
                      allow_nan=False)
    return _LONE_SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def _js_numbers(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, dict):
        return {k: _js_numbers(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_js_numbers(v) for v in value]
    return value


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _utf16_slice(text: str, end: int) -> str:
    return text.encode("utf-16-le", "surrogatepass")[: end * 2].decode("utf-16-le", "surrogatepass")


def truncate(text: str, max_units: int) -> str:
    """The contract's truncate: at most `max_units` UTF-16 units, ending in `…` when cut, never inside a pair."""
    if _utf16_len(text) <= max_units:
        return text
    cut = max_units - 1
    units = text.encode("utf-16-le", "surrogatepass")
    code = int.from_bytes(units[(cut - 1) * 2: cut * 2], "little") if cut > 0 else 0
    if 0xD800 <= code <= 0xDBFF:
        cut -= 1
    return _utf16_slice(text, max(0, cut)) + _ELLIPSIS


def _is_int(value: Any) -> bool:
    """Number.isInteger: a JSON number with no fraction (2.0 counts), never a bool."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and value.is_integer()


def _js_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


# ---- skill ids (src/contract/ids.ts) ----
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


def skill_id_problem(skill_id: Any) -> Optional[str]:
    """Why `skill_id` is not a safe skill id, or None when it is one."""
    if not isinstance(skill_id, str):
        return "expected a string, got %s" % _js_type(skill_id)
    if skill_id == "":
        return "it is empty; use the full id, for example tessl__check-cfps"
    if _utf16_len(skill_id) > SKILL_ID_MAX_LENGTH:
        return "it is %d characters long; the limit is %d" % (_utf16_len(skill_id), SKILL_ID_MAX_LENGTH)
    if "/" in skill_id or "\\" in skill_id:
        return "it contains a path separator; an id is a single file-name segment"
    if ".." in skill_id:
        return 'it contains ".."; an id is a single file-name segment'
    if not _SAFE_ID.match(skill_id):
        return "use only letters, digits, '_', '-' and '.', starting with a letter or digit (for example tessl__check-cfps)"
    return None


def assert_skill_id(skill_id: Any) -> str:
    problem = skill_id_problem(skill_id)
    if problem is not None:
        raise InvalidSkillIdError(skill_id, problem)
    return skill_id


def _to_full_skill_id(name_or_id: str) -> str:
    return name_or_id if name_or_id.startswith(SKILL_ID_PREFIX) else SKILL_ID_PREFIX + name_or_id


def skill_name_problem(name_or_id: Any) -> Optional[str]:
    """Why `name_or_id` cannot name a skill under the one skill-id rule (src/contract/ids.ts), or None."""
    if not isinstance(name_or_id, str):
        return skill_id_problem(name_or_id)
    if name_or_id == SKILL_ID_PREFIX:
        return "it is only the prefix %s; add the skill's name, for example tessl__check-cfps" % SKILL_ID_PREFIX
    full = "" if name_or_id == "" else _to_full_skill_id(name_or_id)
    problem = skill_id_problem(full)
    if problem is None or name_or_id.startswith(SKILL_ID_PREFIX):
        return problem
    if problem.startswith("it is ") and "characters long" in problem:
        return "it is %d characters long with the %s prefix; the limit is %d" % (_utf16_len(full), SKILL_ID_PREFIX, SKILL_ID_MAX_LENGTH)
    return problem


def full_skill_id(name_or_id: Any) -> str:
    """The full id `name_or_id` names: "check-cfps" and "tessl__check-cfps" are both "tessl__check-cfps".

    The one skill-id rule, as emit, the Node library, silence, history and the lint apply it. Raises InvalidSkillIdError."""
    problem = skill_name_problem(name_or_id)
    if problem is not None:
        raise InvalidSkillIdError(name_or_id, problem)
    return _to_full_skill_id(name_or_id)


def summary_path(workspace: Union[str, os.PathLike], skill_id: str) -> Path:
    return Path(workspace) / (SUMMARY_FILE_PREFIX + assert_skill_id(skill_id) + SUMMARY_FILE_SUFFIX)


# ---- timestamps (src/contract/timestamp.ts) ----
_UTC_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?Z\Z")


def is_utc_timestamp(value: str) -> bool:
    m = _UTC_ISO.match(value)
    if not m:
        return False
    year, month, day, hour, minute, second = (int(x) for x in m.groups()[:6])
    if month < 1 or month > 12 or hour > 23 or minute > 59 or second > 59:
        return False
    try:
        datetime(year if year > 0 else 2000, month, day)
    except ValueError:
        return False
    return True


def format_utc_timestamp(now: datetime) -> str:
    """`now` as the contract writes it: UTC, milliseconds, `Z` (JavaScript's toISOString)."""
    now = now.astimezone(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (now.microsecond // 1000)


def _epoch_ms(iso: str) -> int:
    m = _UTC_ISO.match(iso)
    assert m is not None
    year, month, day, hour, minute, second = (int(x) for x in m.groups()[:6])
    ms = int(m.group(7) or 0)
    dt = datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
    return int(dt.timestamp()) * 1000 + ms


# ---- validation: the zod schema's rules and words (src/contract/schema.ts, classify.ts) ----
_REQUIRED_MISSING = "is required but missing"
_ITEMS_OMITTED_MESSAGE = "must be an integer >= 0: how many items were cut to keep the summary within 64 KiB"
_UTC_MESSAGE = "must be UTC ISO-8601 with a Z suffix, such as 2026-11-22T18:04:05Z or 2026-11-22T18:04:05.123Z (no offsets)"


def _one_line_text(value: str, blank: str, max_length: int) -> List[str]:
    out = []
    if "\r" in value or "\n" in value:
        out.append("must be one line: remove the line breaks (CR or LF)")
    if value.strip(_JS_SPACE_CHARS) == "":
        out.append(blank)
    if len(value) > max_length:  # zod counts code points
        out.append("must be at most %d characters" % max_length)
    return out


_JS_SPACE_CHARS = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def _check_skill(value: Any) -> List[str]:
    if not isinstance(value, str):
        return ["must be a string: the full skill id, for example tessl__check-cfps"]
    problem = skill_id_problem(value)
    return [] if problem is None else ["is not a valid skill id: " + problem]


def _check_step(value: Any) -> List[str]:
    if isinstance(value, str):
        return [] if value else ["must not be empty"]
    if _is_int(value):
        out = []
        if abs(value) > _MAX_SAFE_INTEGER:
            out.append("Invalid input")
        if value < 0:
            out.append("must be an integer >= 0")
        return out
    return ["must be a non-empty string or an integer >= 0"]


def _check_items(value: Any) -> List[Tuple[str, str]]:
    if not isinstance(value, list):
        return [("items", "must be an array of strings ([] for a global skip)")]
    out = []
    typed = True
    for i, item in enumerate(value):
        if not isinstance(item, str):
            out.append(("items[%d]" % i, "must be a string"))
            typed = False
        elif item == "":
            out.append(("items[%d]" % i, "must not be an empty string"))
    if typed:
        out += _duplicates("items", value)
    return out


def _duplicates(field: str, values: List[str]) -> List[Tuple[str, str]]:
    # Named in first-repeat order, as the zod schema's message does, so both helpers print the same error.
    seen: set = set()
    dups: List[str] = []
    for v in values:
        if v in seen and v not in dups:
            dups.append(v)
        seen.add(v)
    return [(field, "must not contain duplicates (%s)" % ", ".join(_js_json(d) for d in dups))] if dups else []


def _check_occurred_at(value: Any) -> List[str]:
    if not isinstance(value, str):
        return ["must be a string: a UTC ISO-8601 time such as 2026-11-22T18:04:05Z"]
    out = []
    if not _UTC_ISO.match(value):
        out.append(_UTC_MESSAGE)
    if not is_utc_timestamp(value):
        out.append("is not a real date and time")
    return out


def _check_reason_keys(value: Any) -> List[Tuple[str, str]]:
    if not isinstance(value, list):
        return [("reason_keys", 'must be an array of reason keys, such as ["timeout", "budget"]')]
    if len(value) > REASON_KEYS_MAX:
        return [("reason_keys", "must hold at most %d reason keys" % REASON_KEYS_MAX)]
    out: List[Tuple[str, str]] = []
    typed = True
    for i, key in enumerate(value):
        if not isinstance(key, str):
            out.append(("reason_keys[%d]" % i, 'must be a string, such as "budget"'))
            typed = False
        else:
            out += [("reason_keys[%d]" % i, m) for m in _one_line_text(key, "must not be blank; leave the field out to key by the reason", REASON_KEY_MAX_LENGTH)]
    if typed:
        out += _duplicates("reason_keys", value)
    return out


def _check_links(value: Any) -> List[Tuple[str, str]]:
    if not isinstance(value, list):
        return [("links", 'must be an array of {"title", "url"} objects')]
    if len(value) > LINKS_MAX:
        return [("links", "must hold at most %d links" % LINKS_MAX)]
    out: List[Tuple[str, str]] = []
    for i, link in enumerate(value):
        at = "links[%d]" % i
        if not isinstance(link, dict):
            out.append((at, 'must be an object {"title": ..., "url": ...}'))
            continue
        title = link.get("title")
        if not isinstance(title, str):
            out.append((at + ".title", "must be a string: the words the owner taps"))
        else:
            out += [(at + ".title", m) for m in _one_line_text(title, "must not be blank", LINK_TITLE_MAX_LENGTH)]
        url = link.get("url")
        if not isinstance(url, str):
            out.append((at + ".url", "must be a string: an http: or https: URL"))
        else:
            if len(url) > LINK_URL_MAX_LENGTH:
                out.append((at + ".url", "must be at most %d characters" % LINK_URL_MAX_LENGTH))
            problem = link_url_problem(url)
            if problem is not None:
                out.append((at + ".url", problem))
    return out


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_FORBIDDEN_HOST = re.compile(r"[\x00-\x20#%/:<>?@\[\\\]^|\x7f]")


def link_url_problem(url: str) -> Optional[str]:
    """Why `url` is not a link a notice may carry (the WHATWG URL rules the Node side uses, for http(s) URLs)."""
    absolute = "must be an absolute http: or https: URL, got %s" % _js_json(_utf16_slice(url, 60))
    s = url.strip("".join(chr(c) for c in range(0x21))).replace("\t", "").replace("\n", "").replace("\r", "")
    m = _SCHEME.match(s)
    if not m:
        return absolute
    scheme = m.group(1).lower()
    if scheme not in ("http", "https"):
        return 'must be an http: or https: URL; "%s:" links are refused' % scheme
    authority = re.split(r"[/?#\\]", s[m.end():].lstrip("/\\"), 1)[0]
    host = authority.rsplit("@", 1)[-1]
    port = ""
    if host.startswith("["):
        close = host.find("]")
        if close < 0 or (host[close + 1:] and not host[close + 1:].startswith(":")):
            return absolute
        host, port = host[: close + 1], host[close + 2:]
        if not re.match(r"\[[0-9A-Fa-f:.]+\]\Z", host):
            return absolute
    else:
        if ":" in host:
            host, port = host.split(":", 1)
        if not host or _FORBIDDEN_HOST.search(host):
            return absolute
    if port and (not re.match(r"[0-9]+\Z", port) or int(port) > 65535):
        return absolute
    if re.search("[%s\x00-\x1f\x7f]" % _JS_SPACE, url):
        return "must not contain spaces or control characters; percent-encode them"
    return None


def _field_problems(raw: Dict[str, Any]) -> List[Problem]:
    problems: List[Problem] = []

    def add(field: str, messages: List[str]) -> None:
        problems.extend(Problem(field, m) for m in messages)

    for field in SUMMARY_FIELDS[1:]:
        if field not in raw:
            continue
        value = raw[field]
        if field == "skill":
            add(field, _check_skill(value))
        elif field == "step":
            add(field, _check_step(value))
        elif field == "reason":
            add(field, ["must be a string"] if not isinstance(value, str) else _one_line_text(value, "must not be blank", REASON_MAX_LENGTH))
        elif field == "items":
            problems.extend(Problem(*p) for p in _check_items(value))
        elif field == "technical_failure":
            if not isinstance(value, bool):
                add(field, ["must be true (transient, a retry would likely succeed) or false (a policy skip)"])
        elif field == "occurred_at":
            add(field, _check_occurred_at(value))
    return problems


def classify_summary(raw: Any, expected_skill: Optional[str] = None) -> Tuple[str, Any]:
    """("valid", summary), ("unrecognised-version", version) or ("invalid", [Problem, ...]), as the Node readers."""
    if not isinstance(raw, dict):
        got = "an array" if isinstance(raw, list) else "null" if raw is None else "a " + _js_type(raw)
        return "invalid", [Problem("(root)", "must be a JSON object, got " + got)]
    if "schema_version" not in raw:
        return "unrecognised-version", None
    version = raw["schema_version"]
    if _is_int(version) and version != SCHEMA_VERSION:
        return "unrecognised-version", _js_numbers(version)
    problems: List[Problem] = []
    if not (_is_int(version) and version == SCHEMA_VERSION):
        problems.append(Problem("schema_version", "must be the integer %d" % SCHEMA_VERSION))
    for field in SUMMARY_FIELDS[1:]:
        if field not in raw:
            problems.append(Problem(field, _REQUIRED_MISSING))
    present = _field_problems(raw)
    # The schema's order: each field's problems where zod reports them.
    order = {f: i for i, f in enumerate(SUMMARY_FIELDS + OPTIONAL_SUMMARY_FIELDS)}
    problems += present
    if "reason_key" in raw:
        value = raw["reason_key"]
        problems += [Problem("reason_key", m) for m in (
            ['must be a string, such as "budget"'] if not isinstance(value, str)
            else _one_line_text(value, "must not be blank; leave the field out to key by the reason", REASON_KEY_MAX_LENGTH))]
    if "links" in raw:
        problems += [Problem(*p) for p in _check_links(raw["links"])]
    if "items_omitted" in raw:
        value = raw["items_omitted"]
        if not _is_int(value) or value < 0 or value > _MAX_SAFE_INTEGER:
            problems.append(Problem("items_omitted", _ITEMS_OMITTED_MESSAGE))
    if "reason_keys" in raw:
        problems += [Problem(*p) for p in _check_reason_keys(raw["reason_keys"])]
    problems.sort(key=lambda p: order[re.split(r"[\[.]", p.path, 1)[0]])
    if expected_skill is not None and isinstance(raw.get("skill"), str) and raw["skill"] != expected_skill:
        problems.append(Problem("skill", "must equal the id in the file name (%s), got %s" % (_js_json(expected_skill), _js_json(raw["skill"]))))
    if problems:
        return "invalid", problems
    return "valid", _js_numbers(raw)


def _parse_constant(name: str) -> Any:
    raise ValueError("%s is not JSON" % name)


def classify_summary_text(text: str, expected_skill: Optional[str] = None) -> Tuple[str, Any]:
    if text[:1] == "\ufeff":
        return "invalid", [Problem("(root)", "starts with a byte-order mark (BOM); write plain UTF-8 JSON")]
    if text.strip(_JS_SPACE_CHARS) == "":
        return "invalid", [Problem("(root)", "the file is empty")]
    try:
        raw = json.loads(text, parse_constant=_parse_constant)
    except (ValueError, RecursionError) as error:
        return "invalid", [Problem("(root)", "is not valid JSON (%s)" % error)]
    return classify_summary(raw, expected_skill)


# ---- building, merging, fitting (src/owner/emit.ts, src/contract/merge.ts, size-cap.ts) ----
def _items_value(items: Any) -> Any:
    """`items` as the contract sees it: None is no items; any other iterable a list; anything else is left for the
    validator to name (`items must be an array of strings`), never a bare TypeError from list()."""
    if items is None:
        return []
    if isinstance(items, (str, bytes, dict)):
        return items
    try:
        return list(items)
    except TypeError:
        return items


def _not_json(value: Any, path: str) -> Optional[Tuple[str, str]]:
    """The first value JSON cannot carry (NaN, Infinity, a set, an object), as a Problem's (path, words), else None."""
    if value is None or isinstance(value, (bool, str, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else (path, "must be a finite number: JSON has no NaN or Infinity (got %r)" % value)
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            bad = _not_json(v, "%s[%d]" % (path, i))
            if bad is not None:
                return bad
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                return (path, "must have string keys (got %r)" % (k,))
            bad = _not_json(v, "%s.%s" % (path, k))
            if bad is not None:
                return bad
        return None
    return (path, "must be a JSON value (null, a boolean, a number, a string, a list or a dict), got %s" % type(value).__name__)


def build_summary(skill: str, step: Union[str, int], reason: str, items: Iterable[str] = (), technical_failure: bool = False,
                  reason_key: Optional[str] = None, occurred_at: Optional[str] = None, extra: Optional[Dict[str, Any]] = None,
                  now: Optional[datetime] = None, links: Optional[Iterable[Any]] = None) -> Dict[str, Any]:
    """The validated summary for one skip, without touching the disk. Raises SummaryValidationError / InvalidSkillIdError.

    `links`: shown under the notice, each a {"title": ..., "url": ...} dict or a (title, url) pair; http:/https: only."""
    skill = full_skill_id(skill)  # "check-cfps" is written as "tessl__check-cfps", as emit writes it
    summary: Dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "skill": skill,
        "step": step,
        "reason": reason,
        "items": _items_value(items),
        "technical_failure": technical_failure,
        "occurred_at": occurred_at if occurred_at is not None else format_utc_timestamp(now or datetime.now(timezone.utc)),
    }
    for key, value in (extra or {}).items():
        if key not in SUMMARY_FIELDS and value is not None:
            bad = _not_json(value, key)
            if bad is not None:
                raise SummaryValidationError([Problem(*bad)])
            summary[key] = value
    if reason_key is not None:
        summary["reason_key"] = reason_key
    if links is not None:
        summary["links"] = _link_objects(links)
    kind, result = classify_summary(summary)
    if kind == "valid":
        return result
    if kind == "unrecognised-version":
        raise SummaryValidationError([Problem("schema_version", "this writer writes version %d, got %s" % (SCHEMA_VERSION, _js_json(result)))])
    raise SummaryValidationError(result)


def _link_objects(links: Any) -> Any:
    """(title, url) pairs become {"title", "url"} objects; anything else is left for validation to name."""
    if isinstance(links, (str, bytes, dict)) or not isinstance(links, Iterable):
        return links
    return [{"title": link[0], "url": link[1]} if isinstance(link, tuple) and len(link) == 2 else link for link in links]


def _join_distinct(existing: Any, incoming: Any) -> Any:
    a, b = _js_string(existing), _js_string(incoming)
    if a == b:
        return existing
    if b in a.split(_JOIN):
        return existing
    return a + _JOIN + b


def _js_string(value: Any) -> str:
    return str(int(value)) if _is_int(value) else str(value)


# ---- the reason key (src/contract/reason-key.ts) ----
_QUOTED = [re.compile(p) for p in ('"[^"]*"', "`[^`]*`", "\u201c[^\u201d]*\u201d", "\u2018[^\u2019]*\u2019", "\u00ab[^\u00bb]*\u00bb")]
# [\W_] is "not a letter or number" (JS [^\p{L}\p{N}]): \w is what str.isalnum() accepts, plus "_".
_SINGLE_QUOTED = re.compile(r"(\A|[\W_])'[^']*'(?=\Z|[\W_])")
EMPTY_REASON_KEY = "-"


def normalise_reason(reason: str) -> str:
    """The reason's key: quoted values removed, lower case, digits removed, non-letters collapsed, cut to 100."""
    text = reason
    for pattern in _QUOTED:
        text = pattern.sub(" ", text)
    text = _SINGLE_QUOTED.sub(lambda m: m.group(1) + " ", text)
    text = re.sub(r"\d+", " ", text.lower())
    letters = "".join(c if unicodedata.category(c)[0] in "LM" else " " for c in text)
    key = _utf16_slice(re.sub(" +", " ", letters).strip(" "), REASON_KEY_MAX_LENGTH).strip(_JS_SPACE_CHARS)
    return key or EMPTY_REASON_KEY


def reason_key_of(summary: Dict[str, Any]) -> str:
    """The summary's own reason_key (trimmed) when it set one, else the normalised reason."""
    own = summary.get("reason_key")
    if isinstance(own, str) and own.strip(_JS_SPACE_CHARS) != "":
        return own.strip(_JS_SPACE_CHARS)
    return normalise_reason(summary["reason"])


def _keys_of(summary: Dict[str, Any]) -> List[str]:
    keys = summary.get("reason_keys")
    return list(keys) if isinstance(keys, list) else [reason_key_of(summary)]


def merge_summaries(existing: Dict[str, Any], incoming: Dict[str, Any]) -> Dict[str, Any]:
    """Folds `incoming` into a waiting summary of the same skill: nothing is lost (docs/skip-summary-schema.md)."""
    if existing["skill"] != incoming["skill"]:
        raise ValueError("cannot merge summaries of different skills (%s and %s)" % (existing["skill"], incoming["skill"]))
    extras: Dict[str, Any] = {}
    for source in (incoming, existing):
        # In the order the Node reader returns a summary: the known optional fields first, then the others as they came.
        known = [k for k in OPTIONAL_SUMMARY_FIELDS if k in source]
        for key in known + [k for k in source if k not in SUMMARY_FIELDS and k not in OPTIONAL_SUMMARY_FIELDS]:
            extras[key] = source[key]
    links, urls = [], set()
    for link in list(existing.get("links") or []) + list(incoming.get("links") or []):
        if link["url"] not in urls:
            urls.add(link["url"])
            links.append(link)
    if links:
        extras["links"] = links[:LINKS_MAX]
    omitted = existing.get("items_omitted", 0) + incoming.get("items_omitted", 0)
    if omitted > 0:
        extras["items_omitted"] = omitted
    reason = truncate(_js_string(_join_distinct(existing["reason"], incoming["reason"])), REASON_MAX_LENGTH)
    # Every kind of skip that went in keeps its key; reason_key stays one (the ledger's and the silences' key).
    # Recorded whenever the merged summary's own key would not say it (two kinds, or one kind whose reasons differ).
    keys = list(dict.fromkeys(_keys_of(existing) + _keys_of(incoming)))
    if len(keys) > 1 or reason_key_of({"reason": reason, "reason_key": extras.get("reason_key")}) != keys[0]:
        extras["reason_keys"] = keys[:REASON_KEYS_MAX]
    merged = dict(extras)
    merged["schema_version"] = SCHEMA_VERSION
    merged["skill"] = existing["skill"]
    merged["step"] = _join_distinct(existing["step"], incoming["step"])
    merged["reason"] = reason
    merged["items"] = list(dict.fromkeys(list(existing["items"]) + list(incoming["items"])))
    # Something broke when any part broke (a timeout beside a budget stop is still a technical failure).
    merged["technical_failure"] = bool(existing["technical_failure"] or incoming["technical_failure"])
    earlier = _epoch_ms(incoming["occurred_at"]) < _epoch_ms(existing["occurred_at"])
    merged["occurred_at"] = incoming["occurred_at"] if earlier else existing["occurred_at"]
    return merged


def summary_text(summary: Dict[str, Any]) -> str:
    """The bytes a writer puts on disk: two-space JSON and a final newline, as JSON.stringify(s, null, 2) + "\\n"."""
    return _js_json(summary, indent=2) + "\n"


def fit_summary(summary: Dict[str, Any], max_bytes: int = MAX_SUMMARY_BYTES) -> Tuple[Dict[str, Any], str, int]:
    """(summary, text, cut): the longest prefix of items that keeps the file within `max_bytes`, the rest counted."""
    text = summary_text(summary)
    if len(text.encode("utf-8")) <= max_bytes:
        return summary, text, 0
    total = len(summary["items"])
    already = summary.get("items_omitted", 0)

    def keeping(kept: int) -> Dict[str, Any]:
        out = dict(summary)
        out["items"] = summary["items"][:kept]
        out["items_omitted"] = already + total - kept
        return out

    def size(kept: int) -> int:
        return len(summary_text(keeping(kept)).encode("utf-8"))

    if size(0) > max_bytes:
        raise SummaryValidationError([Problem("(root)", "is %d bytes even without items; a summary is at most %d bytes, so shorten step or the extra fields" % (size(0), max_bytes))])
    lo, hi = 0, total - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if size(mid) <= max_bytes:
            lo = mid
        else:
            hi = mid - 1
    fitted = keeping(lo)
    return fitted, summary_text(fitted), total - lo


# ---- the workspace (src/contract/workspace.ts) ----
def resolve_workspace(workspace: Union[str, os.PathLike, None] = None, env: Optional[Dict[str, str]] = None,
                      cwd: Optional[str] = None) -> Path:
    """The argument, else SKIP_SUMMARY_WORKSPACE, else CLAUDE_PROJECT_DIR, else the cwd when Claude Code runs the
    script (CLAUDECODE=1), else /workspace/agent (NanoClaw 2.x), else /workspace/group, when it exists; an absolute
    path. The same rule as `skip-summary emit` and the hook (docs/owner.md, "Which workspace")."""
    cwd = cwd or os.getcwd()
    environ = os.environ if env is None else env
    flag = os.fspath(workspace) if workspace is not None else ""
    for named in (flag, environ.get(WORKSPACE_ENV) or "", environ.get(PROJECT_DIR_ENV) or ""):
        if named:
            return Path(os.path.normpath(os.path.join(cwd, named)))
    if environ.get(CLAUDE_CODE_ENV) == "1":
        return Path(os.path.normpath(cwd))
    for default in (NANOCLAW2_WORKSPACE, DEFAULT_WORKSPACE):
        if os.path.exists(default):
            return Path(default)
    raise WorkspaceNotFoundError()


def _errno_name(error: BaseException) -> str:
    number = getattr(error, "errno", None)
    return errno.errorcode.get(number, str(error)) if number is not None else str(error)


def _assert_workspace_dir(workspace: Path) -> None:
    try:
        if stat.S_ISDIR(os.stat(workspace).st_mode):
            return
    except OSError as error:
        if error.errno not in (errno.ENOENT, errno.ENOTDIR):
            raise SummaryWriteError("unwritable", str(workspace), "cannot use the workspace %s: %s" % (workspace, _errno_name(error)))
    raise SummaryWriteError("unwritable", str(workspace), "the workspace %s is not an existing directory; create it or pass --workspace DIR" % workspace)


# ---- the lock (docs/owner.md, "The lock"; src/fs/lock.ts, lock-holder.ts) ----
def _lock_error(lock_path: str, doing: str, error: BaseException) -> SummaryWriteError:
    code = _errno_name(error)
    hint = " (no space left on the device)" if code == "ENOSPC" else " (a read-only file system)" if code == "EROFS" else ""
    return SummaryWriteError("unwritable", lock_path, "cannot %s the lock file %s: %s%s; check that the workspace is writable" % (doing, lock_path, code, hint), code)


def _what_is(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    return "not a regular file"


class _FileLock:
    """The one lock per skill that every writer (Node or Python) takes around its read-merge-write."""

    def __init__(self, lock_path: str, timeout: float = LOCK_TIMEOUT_SECONDS, stale: float = LOCK_STALE_SECONDS):
        self.path = lock_path
        self.timeout = timeout
        self.stale = stale
        self._held: Optional[Tuple[int, int]] = None

    def __enter__(self) -> "_FileLock":
        self._held = self._acquire()
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            now = os.lstat(self.path)
            if (now.st_dev, now.st_ino) == self._held:
                os.unlink(self.path)
        except OSError:
            pass

    def still_held(self) -> bool:
        """True while the lock name is still the file this holder placed (it may be taken over as stale)."""
        try:
            now = os.lstat(self.path)
        except OSError:
            return False
        return (now.st_dev, now.st_ino) == self._held

    def _record(self) -> bytes:
        record = {"pid": os.getpid(), "host": socket.gethostname(), "at": int(time.time() * 1000)}
        return (_js_json(record, compact=True) + "\n").encode("utf-8")

    def _acquire(self) -> Tuple[int, int]:
        deadline = time.monotonic() + self.timeout
        candidate = "%s.tmp-%d-%s" % (self.path, os.getpid(), _random_suffix())
        fd = self._write_candidate(candidate)
        try:
            delay = 1.0
            attempt = 0
            while True:
                if attempt > 0:
                    os.utime(fd)  # a candidate that waited must not look old the moment it lands
                placed = self._place(candidate, fd)
                if placed is not None:
                    return placed
                verdict, judged, why = self._judge()
                if verdict == "stale":
                    self._break(judged, why)
                if time.monotonic() >= deadline:
                    raise SummaryWriteError("lock-timeout", self.path, "timed out after %d ms waiting for the lock %s, held by a running emit; if none is running, delete that file" % (round(self.timeout * 1000), self.path))
                if verdict == "held":
                    time.sleep((delay / 2 + delay / 2 * random.random()) / 1000)
                    delay = min(delay * 2, _LOCK_MAX_DELAY_MS)
                elif attempt > 3:
                    time.sleep(0.001)
                attempt += 1
        finally:
            os.close(fd)
            try:
                os.unlink(candidate)
            except OSError:
                pass

    def _write_candidate(self, candidate: str) -> int:
        try:
            fd = os.open(candidate, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise _lock_error(self.path, "create", error)
        try:
            os.fchmod(fd, 0o644)
            _write_all(fd, self._record())
            return fd
        except OSError as error:
            os.close(fd)
            try:
                os.unlink(candidate)
            except OSError:
                pass
            raise _lock_error(self.path, "create", error)

    def _place(self, candidate: str, fd: int) -> Optional[Tuple[int, int]]:
        try:
            os.link(candidate, self.path, follow_symlinks=False)
            st = os.fstat(fd)
            return st.st_dev, st.st_ino
        except FileExistsError:
            return None
        except OSError as error:
            if error.errno in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
                return self._place_without_link(fd)
            raise _lock_error(self.path, "create", error)

    def _place_without_link(self, candidate_fd: int) -> Optional[Tuple[int, int]]:
        # A file system without hard links: O_EXCL create, then the record (docs/owner.md, step 3).
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            return None
        except OSError as error:
            raise _lock_error(self.path, "create", error)
        try:
            _write_all(fd, os.pread(candidate_fd, _LOCK_RECORD_MAX_BYTES, 0))
            st = os.fstat(fd)
            return st.st_dev, st.st_ino
        except OSError as error:
            try:
                os.unlink(self.path)
            except OSError:
                pass
            raise _lock_error(self.path, "create", error)
        finally:
            os.close(fd)

    def _judge(self) -> Tuple[str, Optional[os.stat_result], str]:
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            return "gone", None, ""
        except OSError as error:
            raise _lock_error(self.path, "inspect", error)
        if not stat.S_ISREG(st.st_mode):
            raise SummaryWriteError("not-regular-file", self.path, "refusing to use the lock %s: it is %s, not a lock file; remove it and emit again" % (self.path, _what_is(st.st_mode)))
        age = time.time() - st.st_mtime
        if age > self.stale:
            return "stale", st, "it is %d s old" % round(age)
        if -LOCK_CLOCK_SKEW_SECONDS <= age < LOCK_DEAD_HOLDER_MIN_AGE_SECONDS:
            return "held", None, ""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            try:
                data = os.read(fd, _LOCK_RECORD_MAX_BYTES)
            finally:
                os.close(fd)
        except FileNotFoundError:
            return "gone", None, ""
        except OSError:
            return "held", None, ""  # another user's lock: only its age can free it
        try:
            record = json.loads(data.decode("utf-8"))
            pid = record["pid"]
            if not _is_int(pid) or pid <= 0 or pid > _MAX_SAFE_INTEGER:
                raise ValueError
            host = record.get("host")
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return "stale", st, "it holds no lock record"
        if (isinstance(host, str) and host != socket.gethostname()) or pid == os.getpid():
            return "held", None, ""
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return "stale", st, "its holder (pid %d) is gone" % pid
        except (OSError, OverflowError):
            pass
        return "held", None, ""

    def _break(self, judged: Optional[os.stat_result], why: str) -> None:
        assert judged is not None
        try:
            now = os.lstat(self.path)
            if (now.st_ino, now.st_dev, now.st_mtime_ns) != (judged.st_ino, judged.st_dev, judged.st_mtime_ns):
                return
            os.unlink(self.path)
        except FileNotFoundError:
            return
        except OSError as error:
            if error.errno in (errno.EPERM, errno.EACCES, errno.EROFS):
                raise SummaryWriteError("lock-stale", self.path, "the lock %s is stale (%s) but cannot be removed (%s: it belongs to uid %d); remove it as that user or as root, then emit again" % (self.path, why, _errno_name(error), judged.st_uid))
            raise _lock_error(self.path, "remove the stale", error)


def _random_suffix() -> str:
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    return "".join(random.choice(alphabet) for _ in range(8))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


# ---- the atomic write (src/fs/atomic-write.ts) ----
def _inspect_target(path: str) -> str:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        raise SummaryWriteError("unwritable", path, "cannot inspect %s: %s" % (path, _errno_name(error)))
    if stat.S_ISREG(st.st_mode):
        return "file"
    raise SummaryWriteError("not-regular-file", path, "refusing to write %s: it is %s, not a regular file; remove it and emit again" % (path, _what_is(st.st_mode)))


def _read_waiting(path: str) -> Optional[str]:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None  # a surfacer claimed it between the check and the read: nothing waits
    except OSError as error:
        raise SummaryWriteError("unwritable", path, "cannot read the waiting summary %s to merge into it: %s" % (path, _errno_name(error)))
    try:
        # At most one byte past the limit: a file of 100 MB planted at the name is refused, never read whole (as Node).
        chunks = []
        size = 0
        while size <= MAX_SUMMARY_BYTES:
            chunk = os.read(fd, min(1 << 16, MAX_SUMMARY_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > MAX_SUMMARY_BYTES:
        raise SummaryWriteError("invalid-existing", path, "refusing to overwrite %s: the waiting summary is larger than %d bytes, so it is not a summary this writer made; run the surfacer to quarantine it, or move it away" % (path, MAX_SUMMARY_BYTES))
    return b"".join(chunks).decode("utf-8", "replace")


def _write_atomically(path: str, text: str, before_replace: Optional[Callable[[], bool]] = None) -> bool:
    """False (nothing written) when `before_replace` says no right before the rename."""
    tmp = "%s.tmp-%d-%s" % (path, os.getpid(), _random_suffix())
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            _write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        if before_replace is not None and not before_replace():
            os.unlink(tmp)
            return False
        os.replace(tmp, path)
        dfd = os.open(os.path.dirname(path), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError as error:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise SummaryWriteError("unwritable", path, "cannot write %s: %s; check that the workspace exists and is writable" % (path, _errno_name(error)), _errno_name(error))
    return True


# ---- the public API ----
# ---- a read-only workspace (src/owner/fallback.ts, src/contract/fallback-folder.ts) ----
FALLBACK_ENV = "SKIP_SUMMARY_FALLBACK_DIR"
NANOCLAW_MESSAGES_DIR = "/workspace/ipc/messages"
FALLBACK_SUBFOLDER = "skip-summary"
_FALLBACK_CODES = ("EROFS", "EACCES", "EPERM")


def fallback_folder(env: Optional[Dict[str, str]] = None) -> Path:
    """Where a summary goes when the workspace refuses writes: SKIP_SUMMARY_FALLBACK_DIR, else the NanoClaw 1.x
    messages folder's `skip-summary` subfolder, which the host's IPC loop neither reads nor deletes."""
    environ = os.environ if env is None else env
    if environ.get(FALLBACK_ENV):
        return Path(os.path.abspath(environ[FALLBACK_ENV]))
    messages = os.path.abspath(environ.get("SKIP_SUMMARY_NANOCLAW_DIR") or NANOCLAW_MESSAGES_DIR)
    return Path(messages) / FALLBACK_SUBFOLDER


def _open_fallback_folder() -> Tuple[Optional[Path], str]:
    folder = fallback_folder()
    try:
        if not stat.S_ISDIR(os.lstat(folder.parent).st_mode):
            return None, "%s is not a folder" % folder.parent
    except OSError as error:
        return None, "%s does not exist (%s): no NanoClaw host polls it" % (folder.parent, _errno_name(error))
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError as error:
        return None, "cannot create %s (%s)" % (folder, _errno_name(error))
    try:
        if stat.S_ISDIR(os.lstat(folder).st_mode):
            return folder, ""
    except OSError:
        pass
    return None, "%s is not a real folder (a link or a file sits at that name)" % folder


def _in_memory(folder: Path) -> bool:
    """True on a tmpfs or ramfs, read from /proc/self/mounts (Python has no statfs): the longest mount prefix wins."""
    try:
        with open("/proc/self/mounts", "r", encoding="utf-8") as mounts:
            best, kind = "", ""
            for line in mounts:
                fields = line.split()
                point = fields[1].replace("\\040", " ")
                if (str(folder) + "/").startswith(point.rstrip("/") + "/") and len(point) >= len(best):
                    best, kind = point, fields[2]
            return kind in ("tmpfs", "ramfs")
    except (OSError, IndexError):
        return False


def _write_summary(summary: Dict[str, Any], workspace: Union[str, os.PathLike, None], lock_timeout: float) -> Tuple[Path, Dict[str, Any], bool, int]:
    ws = resolve_workspace(workspace)
    _assert_workspace_dir(ws)
    try:
        return _write_into(ws, summary, lock_timeout)
    except SummaryWriteError as error:
        # A read-only workspace (nanoclaw-public's default tier) must not lose the skip: the fallback folder keeps it.
        if error.errno_name not in _FALLBACK_CODES:
            raise
        folder, why = _open_fallback_folder()
        if folder is None:
            raise SummaryWriteError(error.kind, error.path, "%s; no fallback folder either: %s (set %s to a writable folder the surfacer also watches, or make the workspace writable)" % (error, why, FALLBACK_ENV), error.errno_name)
        written = _write_into(folder, summary, lock_timeout)
        state = "is read-only (EROFS)" if error.errno_name == "EROFS" else "refuses writes (%s)" % error.errno_name
        note = "; note: %s is in memory (tmpfs), so it does not outlive this machine or container" % folder if _in_memory(folder) else ""
        sys.stderr.write("skip-summary: the workspace %s %s, so the skip summary was written to %s instead, where the surfacer also looks%s\n" % (ws, state, written[0], note))
        sys.stderr.flush()
        return written


_LOCK_LOST_TRIES = 3


def _write_into(ws: Path, summary: Dict[str, Any], lock_timeout: float) -> Tuple[Path, Dict[str, Any], bool, int]:
    # A lock held past its stale age is broken by the next emit or surfacer. What this emit read may then be out of
    # date (a surfacer claimed the file, or another emit merged into it), so the writer checks right before its
    # rename that the lock is still the one it placed, and if not, reads and merges again (src/owner/emit.ts).
    path = str(summary_path(ws, summary["skill"]))
    attempt = 1
    while True:
        written = _merge_and_write(path, summary, lock_timeout)
        if written is not None:
            return written
        if attempt >= _LOCK_LOST_TRIES:
            raise SummaryWriteError("lock-stale", path + ".lock", "the lock %s.lock was taken over %d times while this emit was merging (each time it took longer than the lock's stale age of %d s); nothing was written: check what slows the workspace's file system, then emit again" % (path, attempt, round(LOCK_STALE_SECONDS)))
        attempt += 1


def _hold_for_test() -> None:
    # Test-only: SKIP_SUMMARY_TEST_HOLD_AFTER_READ=<file> holds the emit between its read and its write, the lock held
    # (src/owner/test-hold.ts): it writes <file>.reached, then waits for <file> (60 s at most).
    hold = os.environ.get("SKIP_SUMMARY_TEST_HOLD_AFTER_READ")
    if not hold:
        return
    open(hold + ".reached", "w").close()
    deadline = time.monotonic() + 60
    while not os.path.exists(hold) and time.monotonic() < deadline:
        time.sleep(0.005)


def _merge_and_write(path: str, summary: Dict[str, Any], lock_timeout: float) -> Optional[Tuple[Path, Dict[str, Any], bool, int]]:
    with _FileLock(path + ".lock", timeout=lock_timeout) as lock:
        merged = False
        nxt = summary
        text = _read_waiting(path) if _inspect_target(path) == "file" else None
        if text is not None:
            kind, waiting = classify_summary_text(text, summary["skill"])
            if kind == "unrecognised-version":
                raise SummaryWriteError("unrecognised-version", path, "refusing to overwrite %s: it has schema_version %s, which only its owner can migrate; surface or move it first" % (path, "undefined" if waiting is None else _js_json(waiting)))
            if kind == "invalid":
                raise SummaryWriteError("invalid-existing", path, "refusing to overwrite %s: the waiting summary is invalid (%s); run the surfacer to quarantine it, or move it away" % (path, format_problems(waiting)))
            nxt = merge_summaries(waiting, summary)
            merged = True
        _hold_for_test()
        fitted, out, cut = fit_summary(nxt)
        if not _write_atomically(path, out, lock.still_held):
            return None
        return Path(path), fitted, merged, cut


def emit_skip(skill: str, step: Union[str, int], reason: str, items: Iterable[str] = (), technical_failure: bool = False,
              workspace: Union[str, os.PathLike, None] = None, reason_key: Optional[str] = None, *,
              occurred_at: Optional[str] = None, extra: Optional[Dict[str, Any]] = None,
              links: Optional[Iterable[Any]] = None, lock_timeout: float = LOCK_TIMEOUT_SECONDS) -> Path:
    """Writes one skip for `skill`, merging into a summary that is already waiting, and returns the file's path.

    `step`: a name, or an integer >= 0. `reason`: one line for the owner, at most 500 characters. `items`: the
    skipped entries' ids (none: the whole step was skipped). `technical_failure`: True for a transient failure a
    retry would likely fix. `workspace`: default SKIP_SUMMARY_WORKSPACE, then /workspace/group. `reason_key`: a
    stable name for this kind of skip ("budget"), so repeats are counted together. `links`: at most 5 links shown
    under the notice, as {"title": ..., "url": ...} dicts or (title, url) pairs; only http: and https: URLs.

    Raises SummaryValidationError or InvalidSkillIdError (bad data: nothing is written), WorkspaceNotFoundError, or
    SummaryWriteError (the file cannot be written; `kind` says why). Each carries `exit_code`.
    """
    summary = build_summary(skill, step, reason, items, technical_failure, reason_key, occurred_at, extra, links=links)
    return _write_summary(summary, workspace, lock_timeout)[0]


class SkipCollector:
    """Gathers the skips of several steps of one run, and writes them once, as one summary.

        with SkipCollector("tessl__check-cfps") as skips:
            skips.add("fetch", "feed timed out", items=["feed-a"], technical_failure=True)
            ...
        # leaving the block writes the summary (also when the block raised), or nothing when nothing was skipped
    """

    def __init__(self, skill: str, workspace: Union[str, os.PathLike, None] = None, lock_timeout: float = LOCK_TIMEOUT_SECONDS):
        self.skill = full_skill_id(skill)  # a typo fails now, not after all the work is done
        self.workspace = workspace
        self.lock_timeout = lock_timeout
        self._merged: Optional[Dict[str, Any]] = None
        self._size = 0
        #: The summary file the last flush wrote, or None.
        self.path: Optional[Path] = None

    def add(self, step: Union[str, int], reason: str, items: Iterable[str] = (), technical_failure: bool = False,
            reason_key: Optional[str] = None, occurred_at: Optional[str] = None, links: Optional[Iterable[Any]] = None) -> None:
        """Validates the skip at once (a bad one raises here, not at the end) and keeps it."""
        summary = build_summary(self.skill, step, reason, items, technical_failure, reason_key, occurred_at, links=links)
        self._merged = summary if self._merged is None else merge_summaries(self._merged, summary)
        self._size += 1

    def __len__(self) -> int:
        """How many skips were added; a flush does not reset it, so `if len(skips): sys.exit(2)` works after the block."""
        return self._size

    def summary(self) -> Optional[Dict[str, Any]]:
        """The merged summary so far, or None when nothing was skipped."""
        return self._merged

    def flush(self) -> Optional[Path]:
        """Writes the one summary (merging with a waiting one); None when nothing was skipped."""
        if self._merged is None:
            return None
        self.path = _write_summary(self._merged, self.workspace, self.lock_timeout)[0]
        self._merged = None
        return self.path

    def __enter__(self) -> "SkipCollector":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.flush()


def skip_and_exit(skill: str, step: Union[str, int], reason: str, items: Iterable[str] = (), technical_failure: bool = False,
                  workspace: Union[str, os.PathLike, None] = None, reason_key: Optional[str] = None, **kwargs: Any) -> NoReturn:
    """Records the skip, then exits 2 (blocked), or 75 (temporary failure) when `technical_failure`.

    When the summary cannot be written, the reason goes to stderr and the process exits with the sysexits code
    (65 bad data, 64 no workspace, 73 cannot write), so the skill still stops and the failure is not silent.
    """
    try:
        emit_skip(skill, step, reason, items, technical_failure, workspace, reason_key, **kwargs)
    except SkipSummaryError as error:
        sys.stderr.write("skip-summary: %s\n" % error)
        sys.stderr.flush()
        sys.exit(error.exit_code)
    sys.exit(EX_TEMPFAIL if technical_failure else EXIT_BLOCKED)
