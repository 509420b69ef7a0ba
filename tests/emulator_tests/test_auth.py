"""App JWTs, installation tokens, their expiry, and which repositories a token opens."""
import time

import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from github import Auth, BadCredentialsException, GithubIntegration, UnknownObjectException

from .conftest import client_for


def app_jwt(emulator, key_pem=None, **claims) -> str:
    now = int(time.time())
    payload = {"iat": now - 60, "exp": now + 300, "iss": str(emulator.app_id), **claims}
    return jwt.encode(payload, key_pem or emulator.private_key, algorithm="RS256")


def test_app_jwt_leads_to_an_installation_token(github, scenario):
    repo, _ = scenario
    integration = GithubIntegration(auth=Auth.AppAuth(github.app_id, github.private_key), base_url=github.url)
    installation = integration.get_repo_installation("acme", "contracts")
    assert installation.id == repo.installation_id == github.installation_id("acme")
    token = integration.get_access_token(installation.id)
    assert token.token.startswith("ghs_") and token.expires_at.timestamp() > time.time() + 3000
    assert integration.get_app().slug == "schema-review"
    assert client_for(github, repo).get_repo("acme/contracts").get_pull(1).number == 1
    assert [c.operation for c in github.calls][:3] == [
        "apps/get-repo-installation", "apps/create-installation-access-token", "apps/get-authenticated"]


def test_expired_tokens_are_rejected_with_401(github, scenario):
    repo, _ = scenario
    client = client_for(github, repo)
    client.get_repo("acme/contracts")
    github.expire_tokens()
    with pytest.raises(BadCredentialsException) as caught:
        client.get_repo("acme/contracts")
    assert caught.value.status == 401 and caught.value.data["message"] == "Bad credentials"


def test_token_ttl_bounds_a_token_lifetime(github, scenario):
    github.token_ttl = 0.3
    token = github.issue_token("acme")
    headers = {"Authorization": f"token {token}"}
    assert requests.get(f"{github.url}/repos/acme/contracts", headers=headers).status_code == 200
    time.sleep(0.4)
    assert requests.get(f"{github.url}/repos/acme/contracts", headers=headers).status_code == 401
    assert requests.get(f"{github.url}/repos/acme/contracts",
                        headers={"Authorization": "token ghs_unknown"}).status_code == 401


def test_jwt_with_a_foreign_signature_or_issuer_is_rejected(github, scenario):
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    for bad in (app_jwt(github, other), app_jwt(github, iss="999"), app_jwt(github, exp=int(time.time()) - 120)):
        answer = requests.get(f"{github.url}/app", headers={"Authorization": f"Bearer {bad}"})
        assert answer.status_code == 401, answer.text
    good = requests.get(f"{github.url}/app", headers={"Authorization": f"Bearer {app_jwt(github)}"})
    assert good.status_code == 200 and good.json()["id"] == github.app_id
    assert requests.get(f"{github.url}/app").status_code == 401


def test_a_token_only_opens_its_installation(github, scenario):
    github.create_repo("other-org", "secret", {"a.txt": "a\n"})
    client = client_for(github, scenario[0])
    with pytest.raises(UnknownObjectException):
        client.get_repo("other-org/secret")
