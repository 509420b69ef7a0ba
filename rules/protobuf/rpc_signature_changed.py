"""Flags an RPC whose request type, response type or streaming mode changed.

A gRPC call is encoded as the request and response messages, framed per the streaming mode.
Changing either type or either streaming flag makes clients and servers of different versions
misread each other's messages, in both directions (buf: RPC_SAME_REQUEST_TYPE,
RPC_SAME_RESPONSE_TYPE, RPC_SAME_CLIENT_STREAMING, RPC_SAME_SERVER_STREAMING).

Example: `rpc Get(GetRequest) returns (Order);` becomes `returns (stream Order)`.

Fix: add a new RPC with the new signature and deprecate the old one.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind

IMPACT = ("deployed clients and servers disagree on the call: the other side decodes the "
          "request or response as the wrong message (garbage or a failed call), or expects a "
          "stream where one message comes; generated stubs of the new version stop compiling "
          "in callers written for the old.")
SPEC = RuleSpec(id="PROTO_RPC_SIGNATURE_CHANGED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="an RPC's request type, response type or streaming mode changed",
                impact=IMPACT,
                categories=ALL)
KINDS = (Kind.RPC,)
MESSAGE = 'RPC "{path}" changed its signature from {old} to {new}.'


def _signature(rpc, types) -> str:
    def named(full, stream):
        target = types.get(full)
        return ("stream " if stream else "") + (target.name if target else full)
    return (f"({named(rpc.request, rpc.client_streaming)}) "
            f"returns ({named(rpc.response, rpc.server_streaming)})")


def check(pair, ctx):
    if pair.new is None:
        return  # deleted: PROTO_RPC_DELETED
    old, new = _signature(pair.old, ctx.old.types), _signature(pair.new, ctx.new.types)
    if old == new:
        return
    yield SPEC.finding(path=pair.path, line=pair.new.line or 1,
                       message=MESSAGE.format(path=pair.path, old=old, new=new))
