"""The floor of a check: a process that only parses both files, as cheaply as the format allows.

Usage: python bench/floor.py FORMAT OLD NEW [PROTOC_BOOTSTRAP]   (bench/run.py times it)
Avro and JSON Schema: the standard library's json.loads of each file, with the cyclic garbage
collector off as `python -m rules` has it (on, its passes over the new objects cost ~10 ms of
this), importing nothing else. Protobuf: protoc on each file, both at once in their own
processes, started the way the engine starts them (rules.protobuf.compile.BOOTSTRAP, passed in
so this process does not import the engine; no `site` module), without the sandbox.
"""
import gc
import json
import sys

gc.disable()


def main(fmt: str, old: str, new: str, bootstrap: str = "") -> int:
    if fmt != "protobuf":
        for path in (old, new):
            with open(path, encoding="utf-8") as file:
                json.loads(file.read())
        return 0
    import subprocess  # only protobuf's floor starts processes
    from pathlib import Path
    # Without the site module, this process's sys.path handed over, as the engine starts it.
    prelude = f"import sys; sys.path[:0] = {[p for p in sys.path if p]!r}\n"
    runs = [subprocess.Popen([sys.executable, "-I", "-S", "-c", prelude + bootstrap,
                              f"-I{Path(path).parent}", "--descriptor_set_out=/dev/null",
                              Path(path).name])
            for path in (old, new)]
    return max(run.wait() for run in runs)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
