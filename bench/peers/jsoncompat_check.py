"""Peer: jsoncompat (PyPI, Rust core) on a JSON Schema pair, in the Confluent BACKWARD sense:
its "deserializer" role asks whether every value valid under OLD is valid under NEW.

jsoncompat 0.3 reads draft 2020-12 only: bench/run.py hands it the same pair with that
`$schema` (the pair's `definitions` and `$ref`s resolve the same way there).
"""
import sys

import jsoncompat


def main(old_path: str, new_path: str) -> int:
    with open(old_path) as old, open(new_path) as new:
        compatible = jsoncompat.check_compat(old.read(), new.read(), jsoncompat.Role.DESERIALIZER)
    print("compatible" if compatible else "incompatible")
    return 0 if compatible else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
