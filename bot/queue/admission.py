"""A delivery's writes at the door, in as few round trips as the store allows.

Claiming the delivery id, updating its pull request's records and queueing the job took four to
six separate requests to the store; each one makes the request thread give up the GIL and wait
to win it back behind the others, and that wait, not the work, was most of an ack's latency
under load (bench/load.py). SQLite: one transaction, so the records' read-modify-write is atomic
across threads and processes too. Redis: one pipeline to claim and read, one script that writes
the records with the job only if the records are still as read (else read again). Any other
huey store (tests' MemoryHuey): the same steps one by one.
"""
from __future__ import annotations

from typing import Callable, Sequence

from huey.storage import RedisStorage, SqliteStorage

# The records a delivery changes, given their current values (None: absent), as {key: value}.
Update = Callable[[list], dict]


def admit(huey, key: str, entry, *, reads: Sequence[str], update: Update, task: bytes | None) -> bool:
    """Store `entry` under `key` unless the key exists (then False, nothing written); on success
    also write `update(values of reads)` and queue the serialized `task` (if any), all or nothing."""
    storage = huey.storage
    if isinstance(storage, SqliteStorage):
        return _sqlite(huey, key, entry, reads, update, task)
    if isinstance(storage, RedisStorage):
        return _redis(huey, key, entry, reads, update, task)
    return _one_by_one(huey, key, entry, reads, update, task)


def _sqlite(huey, key, entry, reads, update, task) -> bool:
    storage, pack, unpack = huey.storage, huey.serializer.serialize, huey.serializer.deserialize
    with storage.db(commit=True) as cursor:
        cursor.execute("select 1 from kv where queue = ? and key = ?", (storage.name, key))
        if cursor.fetchone() is not None:
            return False
        values = []
        for each in reads:
            cursor.execute("select value from kv where queue = ? and key = ?", (storage.name, each))
            row = cursor.fetchone()
            values.append(unpack(row[0]) if row else None)
        for name, value in {key: entry, **update(values)}.items():
            cursor.execute("insert or replace into kv (queue, key, value) values (?, ?, ?)",
                           (storage.name, name, storage.to_blob(pack(value))))
        if task is not None:
            cursor.execute("insert into task (queue, data, priority) values (?, ?, ?)",
                           (storage.name, storage.to_blob(task), 0))
    return True


def _redis(huey, key, entry, reads, update, task) -> bool:
    storage, pack = huey.storage, huey.serializer.serialize
    claim = storage.conn.pipeline(transaction=False)
    claim.hsetnx(storage.result_key, key, pack(entry))
    for each in reads:
        claim.hget(storage.result_key, each)
    claimed, *raw = claim.execute()
    if not claimed:
        return False
    try:
        # Deliveries for one pull request may arrive together: the records are written only if
        # they still hold what was read (compared in Redis, atomically), else read again.
        write = storage.conn.register_script(_WRITE_IF_UNCHANGED)
        for _attempt in range(WRITE_ATTEMPTS):
            changes = update([None if value is None else huey.serializer.deserialize(value) for value in raw])
            expected = [b"0" if value is None else b"1" + value for value in raw]
            if write(keys=[storage.result_key, storage.queue_key],
                     args=[len(reads), *[x for pair in zip(reads, expected) for x in pair],
                           len(changes), *[x for name, value in changes.items() for x in (name, pack(value))],
                           task or b""]):
                return True
            raw = storage.conn.hmget(storage.result_key, reads) if reads else []
        raise RuntimeError("the pull request's records kept changing while this delivery was admitted")
    except Exception:
        storage.conn.hdel(storage.result_key, key)  # so GitHub's redelivery is not a duplicate
        raise


WRITE_ATTEMPTS = 50
# KEYS: the results hash, the queue list. ARGV: n, then n (field, expected) pairs ("0": absent,
# "1" + value), then m, m (field, value) pairs to write, then the job ("" for none).
_WRITE_IF_UNCHANGED = """
local n = tonumber(ARGV[1])
for i = 1, n do
  local current = redis.call('HGET', KEYS[1], ARGV[2 * i])
  if current == false then current = '0' else current = '1' .. current end
  if current ~= ARGV[2 * i + 1] then return 0 end
end
local base = 2 * n + 2
local m = tonumber(ARGV[base])
for j = 1, m do
  redis.call('HSET', KEYS[1], ARGV[base + 2 * j - 1], ARGV[base + 2 * j])
end
local job = ARGV[base + 2 * m + 1]
if job ~= '' then redis.call('LPUSH', KEYS[2], job) end
return 1
"""


def _one_by_one(huey, key, entry, reads, update, task) -> bool:
    if not huey.put_if_empty(key, entry):
        return False
    try:
        for name, value in update([huey.get(each, peek=True) for each in reads]).items():
            huey.put(name, value)
        if task is not None:
            huey.storage.enqueue(task, 0)
    except Exception:
        huey.delete(key)
        raise
    return True

