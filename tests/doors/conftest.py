"""The project as a user's machine gets it: a copy of the tree, installed offline by pip."""
from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

from tests.localgit import git
from tests.shared import REPO


def offline_pip_env() -> dict[str, str]:
    """pip without the network: no index, no dependency resolution, no isolated build (which
    would fetch setuptools); the dependencies and setuptools come from this environment's
    site-packages, put on the path as the packages a real install would have fetched."""
    return {"PYTHONPATH": sysconfig.get_paths()["purelib"], "PIP_NO_INDEX": "1",
            "PIP_NO_DEPS": "1", "PIP_NO_BUILD_ISOLATION": "0",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def base_env(home: Path) -> dict[str, str]:
    """A minimal environment: PATH, a throwaway HOME, UTF-8; nothing of this test process."""
    return {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8",
            "GIT_CONFIG_NOSYSTEM": "1"}


@pytest.fixture(scope="session")
def project(tmp_path_factory) -> Path:
    """This tree's files (committed or not, never ignored ones), committed in a fresh git
    repository: what the runner downloads for `uses:` and pre-commit clones for `repo:`."""
    copy = tmp_path_factory.mktemp("project") / "schema-review"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    git(copy, "init", "-q")
    git(copy, "add", "-A")
    git(copy, "commit", "-q", "-m", "the tree under test")
    return copy
