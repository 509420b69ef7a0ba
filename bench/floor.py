"""The floor of a check: a process that only parses both files, as cheaply as the format allows.

Usage: python bench/floor.py FORMAT OLD NEW [PROTOC_BOOTSTRAP]   (bench/run.py times it)
Avro and JSON Schema: the standard library's json.loads of each file. Protobuf: protoc on each
file, both at once in their own processes, started the way the engine starts them
(rules.protobuf.compile.BOOTSTRAP, passed in so this process does not import the engine; no
`site` module), without the sandbox.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def main(fmt: str, old: str, new: str, bootstrap: str = "") -> int:
    if fmt != "protobuf":
        for path in (old, new):
            json.loads(Path(path).read_text(encoding="utf-8"))
        return 0
    # Without the site module, this process's sys.path handed over, as the engine starts it.
    prelude = f"import sys; sys.path[:0] = {[p for p in sys.path if p]!r}\n"
    runs = [subprocess.Popen([sys.executable, "-I", "-S", "-c", prelude + bootstrap,
                              f"-I{Path(path).parent}", "--descriptor_set_out=/dev/null",
                              Path(path).name])
            for path in (old, new)]
    return max(run.wait() for run in runs)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
