"""A delivery's writes at the door, in as few round trips as the store allows.

Claiming the delivery id, updating its pull request's records and queueing the job took four to
six separate requests to the store; each one makes the request thread give up the GIL and wait
to win it back behind the others, and that wait, not the work, was most of an ack's latency
under load (bench/load.py). SQLite: one transaction, so the records' read-modify-write is atomic
across threads and processes too. Redis: one pipeline to claim and read, one MULTI to write the
records with the job. Any other huey store (tests' MemoryHuey): the same steps one by one.
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
    storage, pack, unpack = huey.storage, huey.serializer.serialize, huey.serializer.deserialize
    claim = storage.conn.pipeline(transaction=False)
    claim.hsetnx(storage.result_key, key, pack(entry))
    for each in reads:
        claim.hget(storage.result_key, each)
    claimed, *raw = claim.execute()
    if not claimed:
        return False
    try:
        write = storage.conn.pipeline(transaction=True)
        for name, value in update([None if each is None else unpack(each) for each in raw]).items():
            write.hset(storage.result_key, name, pack(value))
        if task is not None:
            write.lpush(storage.queue_key, task)
        write.execute()
    except Exception:
        storage.conn.hdel(storage.result_key, key)  # so GitHub's redelivery is not a duplicate
        raise
    return True


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

