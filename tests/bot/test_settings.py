"""Settings come from the environment once; errors name the key and never leak a value."""
import pytest

from bot.settings import Settings, SettingsError

PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIsecretvalue\n-----END RSA PRIVATE KEY-----\n"
BASE = {"GITHUB_APP_ID": "42", "GITHUB_WEBHOOK_SECRET": "hunter2", "GITHUB_PRIVATE_KEY": PEM}


def test_complete_environment():
    settings = Settings.from_environ({**BASE, "PORT": "9000"})
    assert (settings.app_id, settings.port, settings.api_url) == ("42", 9000, "https://api.github.com")
    assert settings.graphql_url == "https://api.github.com/graphql"
    assert "hunter2" not in repr(settings) and "secretvalue" not in repr(settings)


@pytest.mark.parametrize("api, graphql", [
    ("https://ghe.example.com/api/v3", "https://ghe.example.com/api/graphql"),
    ("https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"),
    ("http://127.0.0.1:8080", "http://127.0.0.1:8080/graphql"),
])
def test_graphql_url_derives_from_api_url(api, graphql):
    assert Settings.from_environ({**BASE, "GITHUB_API_URL": api}).graphql_url == graphql


@pytest.mark.parametrize("missing", ["GITHUB_APP_ID", "GITHUB_WEBHOOK_SECRET"])
def test_missing_key_is_named(missing):
    env = {k: v for k, v in BASE.items() if k != missing}
    with pytest.raises(SettingsError, match=missing):
        Settings.from_environ(env)


def test_missing_private_key_names_both_options():
    env = {k: v for k, v in BASE.items() if k != "GITHUB_PRIVATE_KEY"}
    with pytest.raises(SettingsError, match="GITHUB_PRIVATE_KEY_PATH"):
        Settings.from_environ(env)


def test_private_key_from_path_and_escaped_newlines(tmp_path):
    key_file = tmp_path / "key.pem"
    key_file.write_text(PEM)
    env = {k: v for k, v in BASE.items() if k != "GITHUB_PRIVATE_KEY"}
    assert Settings.from_environ({**env, "GITHUB_PRIVATE_KEY_PATH": str(key_file)}).private_key == PEM
    escaped = PEM.replace("\n", "\\n")
    assert Settings.from_environ({**BASE, "GITHUB_PRIVATE_KEY": escaped}).private_key == PEM


def test_bad_key_error_does_not_echo_the_value():
    with pytest.raises(SettingsError) as error:
        Settings.from_environ({**BASE, "GITHUB_PRIVATE_KEY": "not-a-key-hunter3"})
    assert "hunter3" not in str(error.value) and "GITHUB_PRIVATE_KEY" in str(error.value)
