"""Peer: Apache Avro's own compatibility checker on a schema pair (reader=NEW reads writer=OLD)."""
import sys

import avro.compatibility
import avro.schema


def main(old_path: str, new_path: str) -> int:
    with open(old_path) as old, open(new_path) as new:
        writer, reader = avro.schema.parse(old.read()), avro.schema.parse(new.read())
    result = avro.compatibility.ReaderWriterCompatibilityChecker().get_compatibility(reader, writer)
    print(result.compatibility.name)
    return 0 if result.compatibility is avro.compatibility.SchemaCompatibilityType.compatible else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
