"""Flags an RPC deleted from a service that is still there (buf's PACKAGE and FILE categories).

No payload changes, but clients generated from the old file still call the method and the new
server answers UNIMPLEMENTED; code that calls the generated stub stops compiling, and servers
written for the old file no longer implement an interface that lists it the same way, in both
directions (buf: RPC_NO_DELETE). A whole deleted service is PROTO_SERVICE_DELETED.

Example: `rpc Cancel(CancelRequest) returns (Order);` disappears from `service Orders`.

Fix: keep the RPC (mark it `option deprecated = true;`) until no client calls it.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind

IMPACT = ("no payload changes. Deployed clients call a method the new server no longer serves "
          "(UNIMPLEMENTED), and code that calls its generated stub stops compiling.")
SPEC = RuleSpec(id="PROTO_RPC_DELETED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="an RPC was deleted from its service (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.RPC,)
MESSAGE = 'RPC "{name}" was deleted from service "{service}".'


def check(pair, ctx):
    service = pair.old.name.rpartition(".")[0]
    if pair.new is not None or service not in ctx.new.services:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(name=pair.path, service=service))
