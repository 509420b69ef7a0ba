"""Flags a service that was deleted from the file (buf's PACKAGE and FILE categories).

No payload changes, but every client of the service calls paths (`/pkg.Service/Method`) the
new server no longer serves, and code generated from the new file has no stubs for it, so
callers stop compiling, in both directions (buf: SERVICE_NO_DELETE under FILE,
PACKAGE_SERVICE_NO_DELETE under PACKAGE). Under PACKAGE alone a service that moved to another
file of the package (one this file imports) is not a deletion. Its RPCs are not reported again.

Example: `service LegacyOrders { ... }` disappears from `orders.proto`.

Fix: keep the service (mark it `option deprecated = true;`) until no client calls it.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind

IMPACT = ("no payload changes. Deployed clients call methods the new server no longer serves "
          "(UNIMPLEMENTED), and code that uses the generated stubs stops compiling.")
SPEC = RuleSpec(id="PROTO_SERVICE_DELETED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a service was deleted (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.SERVICE,)
MESSAGE = 'Service "{name}" was deleted.'


def check(pair, ctx):
    if pair.new is not None or ctx.moved_within_package(pair.old.full):
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side, message=MESSAGE.format(name=pair.path))
