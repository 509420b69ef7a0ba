"""The `.env` file: written once by the registration page (mode 0600), read at startup under the environment."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping, MutableMapping

ENV_FILE_VARIABLE = "SCHEMA_REVIEW_ENV_FILE"
DEFAULT_ENV_FILE = ".env"
HEADER = ("# Written by schema-review's registration page. Keep it secret (mode 0600).\n"
          "# Read at startup; a variable already set in the environment wins over this file.\n")


def env_file_path(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    return Path(env.get(ENV_FILE_VARIABLE, "").strip() or DEFAULT_ENV_FILE)


def load_env_file(environ: MutableMapping[str, str] | None = None) -> bool:
    """Copy the file's settings into `environ` (os.environ) where not already set; False: no file."""
    env = os.environ if environ is None else environ
    path = env_file_path(env)
    if not path.is_file():
        return False
    from dotenv import dotenv_values
    # No ${VAR} expansion: a secret is taken exactly as written.
    for key, value in dotenv_values(path, interpolate=False).items():
        if value is not None:
            env.setdefault(key, value)
    return True


def write_env_file(path: Path, values: Mapping[str, str]) -> None:
    """Create `path` readable by its owner only; never overwrite (FileExistsError instead).

    The mode is set when the file is created, so the secrets are never readable by others,
    not even for an instant.
    """
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(HEADER)
        for key, value in values.items():
            handle.write(f'{key}="{_quote(value)}"\n')


def _quote(value: str) -> str:
    """python-dotenv's double-quoted form: backslash escapes, newlines as \\n (PEM keys)."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "").replace("\n", "\\n")
