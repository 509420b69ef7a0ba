"""Peer: fastavro's parse of both files (no compatibility check: the floor of a fastavro user)."""
import json
import sys

import fastavro


def main(old_path: str, new_path: str) -> int:
    for path in (old_path, new_path):
        with open(path) as schema:
            fastavro.parse_schema(json.load(schema))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
