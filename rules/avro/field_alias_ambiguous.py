"""Flags a field whose alias names another field the writer still has.

Why it breaks: a reader resolves a writer's field by name and then by the reader field's
aliases. When a reader field `x` lists alias `score` and the writer has both `x` and `score`,
two writer fields answer to `x`: Java's resolver renames `score` to `x` and rejects the record
("Duplicate field x"), and other implementations silently pick one. New readers break on old
data (**backward**) when NEW has such an alias; old readers break on new data (**forward**) when
OLD had one and NEW still has both fields.

Example: OLD fields `x`, `score`; NEW fields `x` (aliases `["score"]`), `score` ->
`Field "Event.x" lists alias "score", but the writer also has a field "score".`

Fix: drop the alias, or remove (or rename) the field the alias names first.
"""
from ..model import BOTH_DIRECTIONS, Direction, Format, Severity, Side
from ..registry import RuleSpec
from .pairs import TypePair
from .schema import Record

SPEC = RuleSpec(id="AVRO_FIELD_ALIAS_AMBIGUOUS", format=Format.AVRO, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="A field's alias names another field the writer still has.")
PAIR = TypePair
MESSAGE = ('Field "{record}.{name}" lists alias "{alias}", but the writer also has a field '
           '"{alias}": readers resolving by alias see two fields named "{name}".')


def check(pair: TypePair, ctx):
    old, new = pair.old, pair.new
    if not (isinstance(old, Record) and isinstance(new, Record)):
        return
    # (reader, writer, direction whose readers use that reader, side the reader is on)
    for reader, writer, direction, side in ((new, old, Direction.BACKWARD, Side.NEW),
                                            (old, new, Direction.FORWARD, Side.OLD)):
        written = {f.name for f in writer.fields}
        for field in reader.fields:
            if field.name not in written:
                continue
            for alias in field.aliases:
                if alias != field.name and alias in written:
                    yield SPEC.finding(path=f"{reader.display}.{field.name}", line=field.line,
                                       side=side, breaks=frozenset({direction}),
                                       message=MESSAGE.format(record=reader.display,
                                                              name=field.name, alias=alias))
