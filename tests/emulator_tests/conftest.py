"""Fixtures for the emulator's own tests: the `github` fixture and a PyGithub client on it."""
import pytest
from github import Auth, Github

from tests.github_emulator.fixtures import github  # noqa: F401  (re-exported fixture)

OLD_SCHEMA = "".join(f"line {n}\n" for n in range(1, 31))
# Changes at lines 3 and 25: two hunks, with lines 10-19 outside every hunk.
NEW_SCHEMA = OLD_SCHEMA.replace("line 3\n", "line three\n").replace("line 25\n", "line 25\nline 25b\n")


def client_for(emulator, repo, *, base_url=None, **options) -> Github:
    auth = Auth.AppAuth(emulator.app_id, emulator.private_key).get_installation_auth(repo.installation_id)
    return Github(base_url=base_url or emulator.url, auth=auth, seconds_between_requests=0,
                  seconds_between_writes=0, **options)


@pytest.fixture
def scenario(github):  # noqa: F811
    """acme/contracts with a feature branch that edits, adds, deletes and renames files."""
    repo = github.create_repo("acme", "contracts", {
        "schemas/user.avsc": OLD_SCHEMA, "schemas/gone.proto": "syntax = \"proto3\";\n",
        "schemas/moved_from.json": "{\n  \"type\": \"object\",\n  \"title\": \"kept\"\n}\n"})
    repo.commit("feature", {"schemas/user.avsc": NEW_SCHEMA, "schemas/new.avsc": "{}\n",
                            "schemas/gone.proto": None, "schemas/moved_from.json": None,
                            "schemas/moved_to.json": "{\n  \"type\": \"object\",\n  \"title\": \"kept\"\n}\n"},
                "Change contracts")
    pull = github.open_pull("acme", "contracts", "feature", "main", "Change contracts")
    return repo, pull
