"""Whether a deleted field had been deprecated for long enough, from the file's history."""
from __future__ import annotations

import bisect
import json
import re
from datetime import datetime, timedelta
from typing import Iterable

from rules import Finding, Format, Severity, Side

from bot.config.config import DEPRECATION_WINDOW
from bot.lifecycle.jsonwalk import objects
from bot.lifecycle.since import History, States, aware, days as _days, stamped

TOO_SOON = ('"{path}" was deleted {when}; the deprecation window is {window} days, so it may '
            "be deleted from {until}.")
DELETED = '"{path}" was deleted while deprecated'
SAME_DAY = "on the day it was marked deprecated, {since}"
DAYS_AFTER = "{days} after it was marked deprecated on {since}"
# A protobuf field or enum value with options, `[deprecated = true]` among them, and the message
# or enum around it. Both run in linear time on hostile text (the options stop at the next
# bracket, the indentation at the line's end): no backtracking can stall the process.
PROTO_OPTIONED = re.compile(r"\b(\w+)\s*=\s*-?\d+\s*\[([^\[\]]*)\]")
PROTO_DEPRECATED_OPTION = re.compile(r"\bdeprecated\s*=\s*true")
PROTO_PARENT = re.compile(r"^[ \t]*(?:message|enum)\s+(\w+)", re.MULTILINE)
PROTO_ELEMENT = re.compile(r"\b(\w+)\s*=\s*-?\d+")
JSON_NAMED = r'"name"\s*:\s*"{name}"|"{name}"\s*:'
# The rule engine's Avro convention, which JSON Schema authors use in descriptions too.
DOC_PREFIXES = ("deprecated", "@deprecated")

def check(base: str, head: str, *, fmt: Format, file: str, history: History,
          window_days: int, now: datetime, severity: Severity) -> list[Finding]:
    """One finding per deprecated element deleted less than `window_days` after it was marked.

    `history` is the file's versions on the base branch, newest first (normally starting with
    the base itself): the marker landed in the oldest version of the newest unbroken run of
    versions that carry it. Deleting a field never deprecated is the rule engine's business.
    """
    if window_days <= 0 or not history:
        return []
    out, marked = [], States(history, lambda text: deprecated_names(text, fmt=fmt))
    for name, path, line in deleted_deprecated(base, head, fmt=fmt):
        since = marked.since(name)
        if since is None or aware(now) >= since + timedelta(days=window_days):
            continue
        days = (aware(now) - since).days
        until = since + timedelta(days=window_days)
        day = stamped(since.date().isoformat(), marked.dated_by(name))
        when = SAME_DAY.format(since=day) if days < 1 else DAYS_AFTER.format(days=_days(days),
                                                                            since=day)
        message = TOO_SOON.format(path=path, when=when, window=window_days,
                                  until=until.date().isoformat())
        out.append(Finding(rule=DEPRECATION_WINDOW, severity=severity, line=line, path=path,
                           message=message, side=Side.OLD, file=file, breaks=frozenset(),
                           reported=DELETED.format(path=path)))  # the dates change daily
    return out


def deleted_deprecated(base: str, head: str, *, fmt: Format) -> list[tuple[str, str, int]]:
    """(name, element path, base line) of each element deprecated in base and gone in head."""
    out = []
    if fmt is Format.PROTOBUF:
        # Indexes built once: thousands of deprecated fields stay linear in the file's size.
        parents = [(m.start(), m.group(1)) for m in PROTO_PARENT.finditer(base)]
        newlines = [m.start() for m in re.finditer("\n", base)]
        kept = {m.group(1) for m in PROTO_ELEMENT.finditer(head)}
        for match in _proto_deprecated(base):
            name = match.group(1)
            if name in kept:
                continue
            inside = bisect.bisect_left(parents, (match.start(), ""))
            path = f"{parents[inside - 1][1]}.{name}" if inside else name
            out.append((name, path, bisect.bisect_left(newlines, match.start()) + 1))
        return out
    head_names = {name for name, _parent, _obj in _named(_json(head))}
    for name, parent, obj in _named(_json(base)):
        if marked(obj) and name not in head_names:
            found = re.search(JSON_NAMED.format(name=re.escape(name)), base)
            line = base.count("\n", 0, found.start()) + 1 if found else 1
            out.append((name, f"{parent}.{name}" if parent else name, line))
    return out


def deprecated_names(text: str | bytes, *, fmt: Format) -> frozenset[str]:
    """The names of the elements the schema text marks as deprecated."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if fmt is Format.PROTOBUF:
        return frozenset(m.group(1) for m in _proto_deprecated(text))
    return frozenset(found for found, _parent, obj in _named(_json(text)) if marked(obj))


def _proto_deprecated(text: str) -> Iterable[re.Match]:
    return (m for m in PROTO_OPTIONED.finditer(text) if PROTO_DEPRECATED_OPTION.search(m.group(2)))


def marked(obj: dict) -> bool:
    # JSON Schema has `deprecated`; Avro has no keyword, so a custom property or the doc says it.
    doc = obj.get("doc") if isinstance(obj.get("doc"), str) else ""
    return obj.get("deprecated") is True or doc.lower().lstrip().startswith(DOC_PREFIXES)


def _json(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _named(document: object) -> Iterable[tuple[str, str, dict]]:
    """(name, enclosing record's name, object) for Avro fields and JSON Schema properties."""
    for value, parent in objects(document, "", _record_name):
        if isinstance(value.get("name"), str) and "type" in value:
            yield value["name"], parent, value  # an Avro field (or named type)
        properties = value.get("properties")
        if isinstance(properties, dict):
            for key, schema in properties.items():
                if isinstance(schema, dict):
                    yield key, "", schema


def _record_name(value: dict, parent: str) -> str:
    is_record = value.get("type") == "record" and isinstance(value.get("name"), str)
    return value["name"] if is_record else parent
