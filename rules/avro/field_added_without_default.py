"""Flags a record field that NEW adds without a `default`.

Why it breaks: Avro resolves records by field name. A new reader that meets data written with the
old schema finds no value for the added field and, with no default to fall back on, fails
("READER_FIELD_MISSING_DEFAULT_VALUE"). Old readers simply skip the extra field, so only
**backward** compatibility breaks.

Example: OLD `{"name": "UserEvent", "fields": [{"name": "id", "type": "long"}]}`, NEW adds
`{"name": "userLevel", "type": "string"}` -> `Field "UserEvent.userLevel" was added without a default.`

Fix: give the field a default. The suggestion makes it optional:
`{"name": "userLevel", "type": ["null", "string"], "default": null}` (null moves to the front of
an existing union, because a union's default conventionally belongs to its first branch). A
non-null default of the field's own type (`"default": "basic"`) works just as well.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import suggest
from .pairs import FieldPair

SPEC = RuleSpec(id="AVRO_FIELD_ADDED_WITHOUT_DEFAULT", format=Format.AVRO, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR,
                summary="A field was added without a default.")
PAIR = FieldPair
MESSAGE = 'Field "{path}" was added without a default.'
TITLE = 'Make "{name}" optional with default null'


def check(pair: FieldPair, ctx):
    if pair.old is not None or pair.new is None or pair.new.has_default:
        return
    field = pair.new
    written = field.node["type"]
    branches = written if isinstance(written, list) else [written]
    optional = ["null", *(b for b in branches if b != "null")]
    fix = suggest.set_keys(ctx.new, field.node, "type", {"type": optional, "default": None},
                           TITLE.format(name=field.name))
    yield SPEC.finding(path=pair.path, line=field.line, message=MESSAGE.format(path=pair.path),
                       suggestion=fix)
