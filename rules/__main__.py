"""Entry point for `python -m rules`."""
import gc
import os
import sys

# A one-shot process: the collector cannot free anything that exit would not, so it only costs.
gc.disable()

from .cli import main  # noqa: E402

code = main()
# Skip the interpreter's teardown of every module and object (about 10 ms on a large schema):
# nothing is left to flush but the standard streams.
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
