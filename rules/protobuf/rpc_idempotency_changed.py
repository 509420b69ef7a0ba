"""Flags an RPC whose `idempotency_level` option changed.

Clients read the level to decide what they may do with a call: gRPC and Connect retry
IDEMPOTENT and NO_SIDE_EFFECTS calls, Connect sends NO_SIDE_EFFECTS calls as cacheable HTTP GETs.
A client generated from one version and a server of the other then disagree about whether a call
may be repeated or cached: a call the new server no longer treats as safe gets retried, or a
client no longer uses GET where a proxy expects it, in both directions (buf:
RPC_SAME_IDEMPOTENCY_LEVEL, in every category).

Example: `rpc Get(GetRequest) returns (Order) { option idempotency_level = NO_SIDE_EFFECTS; }`
loses its option (the level becomes IDEMPOTENCY_UNKNOWN).

Fix: keep the level; if the method's behaviour really changed, add a new RPC.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind

IMPACT = ("no payload changes. Clients decide from the level whether they may retry a call or send "
          "it as a cacheable GET, so clients of one version repeat or cache calls the other "
          "version's server does not expect to be repeated.")
SPEC = RuleSpec(id="PROTO_RPC_IDEMPOTENCY_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="an RPC's idempotency level changed", impact=IMPACT, categories=ALL)
KINDS = (Kind.RPC,)
MESSAGE = 'RPC "{path}" changed its idempotency level from {old} to {new}.'


def check(pair, ctx):
    if pair.new is None:
        return  # deleted: PROTO_RPC_DELETED
    old, new = pair.old.idempotency, pair.new.idempotency
    if old == new:
        return
    yield SPEC.finding(path=pair.path, line=pair.new.line or 1,
                       message=MESSAGE.format(path=pair.path, old=old, new=new))
