"""Peer (the issue's floor-style one): the `jsonschema` library's meta-validation of both files,
then a naive structural diff (every path removed or changed from OLD to NEW). It knows nothing
of compatibility: any removal or change counts as breaking."""
import json
import sys

import jsonschema


def diff(old, new, path="$"):
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            if key not in new:
                yield f"{path}/{key}: removed"
            else:
                yield from diff(value, new[key], f"{path}/{key}")
    elif old != new:
        yield f"{path}: changed"


def main(old_path: str, new_path: str) -> int:
    documents = []
    for path in (old_path, new_path):
        with open(path) as schema:
            document = json.load(schema)
        jsonschema.validators.validator_for(document).check_schema(document)
        documents.append(document)
    changes = list(diff(*documents))
    print("\n".join(changes))
    return 1 if changes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
