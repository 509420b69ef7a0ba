"""Flags an extension deleted from the file (WIRE_JSON; buf: EXTENSION_NO_DELETE under FILE).

An extension is known by the message it extends and its number on the wire, and by its full
name in JSON (`{"[shop.gift_note]": "hi"}`). Once it is deleted, the new version reads old
binary data with the value kept aside as an unknown field (decoding succeeds, as for a deleted
field), and its JSON parser refuses old JSON outright: `Message type "shop.Order" has no field
named "[shop.gift_note]"`. So the deletion breaks backward compatibility wherever JSON is
protected (WIRE_JSON, the default, and PACKAGE and FILE), though buf reports it under FILE and
PACKAGE only; old readers never miss it in new data. An extension that moved to a file this one
imports (same message, number and full name) reads as before: only FILE reports that, as buf
does. A renumbered extension is PROTO_FIELD_NUMBER_CHANGED's finding (its binary value is lost).

Example: `optional string gift_note = 101;` disappears from `extend Order { ... }`.

Fix: keep the extension, marked `[deprecated = true]`, until no stored data or JSON payload
carries it; once it is deleted, never give its number on that message to another extension.
"""
from ..model import BACKWARD_ONLY, BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import FILE, JSON
from .pairs import Kind

IMPACT = ("binary data written with the old schema still decodes, the extension's value kept "
          "aside as unknown; JSON written with it is refused by the new version's parser.")
SPEC = RuleSpec(id="PROTO_EXTENSION_DELETED", format=Format.PROTOBUF, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR,
                summary="an extension was deleted (WIRE_JSON: its JSON key is refused)",
                impact=IMPACT, categories=JSON)
KINDS = (Kind.EXTENSION,)
MESSAGE = ('Extension "{path}" (number {number}) was deleted: old binary data keeps its value '
           'aside as unknown, and a JSON parser of the new version refuses the key "{key}".')
MOVED = ('Extension "{path}" (number {number}) moved to another file: payloads read as before, '
         'but generated code finds it in the other file.')


def check(pair, ctx):
    old, extendee = pair.old, pair.old_parent.full.removeprefix("extend ")
    moved = ctx.extension_moved(extendee, old)
    if moved and FILE not in ctx.categories:
        return
    line, side = pair.where()
    text = MOVED if moved else MESSAGE
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       breaks=BOTH_DIRECTIONS if moved else None,
                       message=text.format(path=pair.path, number=old.number, key=old.json_name))
