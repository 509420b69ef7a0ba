"""Settings come from the environment once; every problem is named at once, never with its value."""
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from bot.queue.runtime import read_environment
from bot.config.settings import BAD_PORT, BAD_URL, MISSING, Settings, SettingsError, read


def pem(key, *, password: bytes | None = None) -> str:
    encryption = (serialization.BestAvailableEncryption(password) if password
                  else serialization.NoEncryption())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL
                             if isinstance(key, rsa.RSAPrivateKey) else serialization.PrivateFormat.PKCS8,
                             encryption).decode()


RSA = rsa.generate_private_key(public_exponent=65537, key_size=2048)
PEM = pem(RSA)
SECRET_VALUE = "hunter2-webhook-secret"
BASE = {"GITHUB_APP_ID": "42", "GITHUB_WEBHOOK_SECRET": SECRET_VALUE, "GITHUB_PRIVATE_KEY": PEM}
PUBLIC = RSA.public_key().public_bytes(serialization.Encoding.PEM,
                                       serialization.PublicFormat.SubjectPublicKeyInfo).decode()
DAMAGED = PEM[:200] + PEM[260:]  # a chunk of base64 cut out of the middle
KEY_LINES = PEM.strip().splitlines()


def problems_of(env: dict) -> list[str]:
    with pytest.raises(SettingsError) as caught:
        Settings.from_environ(env)
    return caught.value.problems


def test_complete_environment():
    settings = Settings.from_environ({**BASE, "PORT": "9000"})
    assert (settings.app_id, settings.port, settings.api_url) == ("42", 9000, "https://api.github.com")
    assert settings.graphql_url == "https://api.github.com/graphql"
    assert SECRET_VALUE not in repr(settings) and KEY_LINES[1] not in repr(settings)
    assert read(BASE).problems == []


@pytest.mark.parametrize("api, graphql", [
    ("https://ghe.example.com/api/v3", "https://ghe.example.com/api/graphql"),
    ("https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"),
    ("http://127.0.0.1:8080", "http://127.0.0.1:8080/graphql"),
])
def test_graphql_url_derives_from_api_url(api, graphql):
    assert Settings.from_environ({**BASE, "GITHUB_API_URL": api}).graphql_url == graphql


@pytest.mark.parametrize("missing", ["GITHUB_APP_ID", "GITHUB_WEBHOOK_SECRET", "GITHUB_PRIVATE_KEY"])
def test_missing_key_is_named(missing):
    env = {k: v for k, v in BASE.items() if k != missing}
    assert problems_of(env) == [MISSING[missing]]
    assert missing in str(problems_of({**env, missing: "   "}))


def test_missing_private_key_names_both_options():
    env = {k: v for k, v in BASE.items() if k != "GITHUB_PRIVATE_KEY"}
    (problem,) = problems_of(env)
    assert "GITHUB_PRIVATE_KEY or GITHUB_PRIVATE_KEY_PATH is missing" in problem


def test_nothing_set_names_all_three_in_one_message():
    reading = read({})
    assert reading.settings is None and reading.missing == ("GITHUB_APP_ID", "GITHUB_PRIVATE_KEY",
                                                            "GITHUB_WEBHOOK_SECRET")
    with pytest.raises(SettingsError) as caught:
        Settings.from_environ({})
    message = str(caught.value)
    assert message.startswith("schema-review cannot start: 3 settings are missing or malformed")
    for key in ("GITHUB_APP_ID", "GITHUB_PRIVATE_KEY or GITHUB_PRIVATE_KEY_PATH", "GITHUB_WEBHOOK_SECRET"):
        assert f"  - {key} is missing" in message


def test_private_key_from_path_and_escaped_newlines(tmp_path):
    key_file = tmp_path / "key.pem"
    key_file.write_text(PEM)
    env = {k: v for k, v in BASE.items() if k != "GITHUB_PRIVATE_KEY"}
    assert Settings.from_environ({**env, "GITHUB_PRIVATE_KEY_PATH": str(key_file)}).private_key == PEM
    escaped = PEM.replace("\n", "\\n")
    assert Settings.from_environ({**BASE, "GITHUB_PRIVATE_KEY": escaped}).private_key == PEM


# (variable, value, what the message must say); the value must never appear in it.
MALFORMED = [
    ("GITHUB_APP_ID", "abc", "GITHUB_APP_ID must be a whole number"),
    ("GITHUB_APP_ID", "12a4", "GITHUB_APP_ID must be a whole number"),
    ("GITHUB_APP_ID", "-5", "GITHUB_APP_ID must be a whole number"),
    ("GITHUB_APP_ID", "١٢٣", "GITHUB_APP_ID must be a whole number"),  # Unicode digits: not for int() here
    ("GITHUB_PRIVATE_KEY", "not-a-key-hunter3", "GITHUB_PRIVATE_KEY does not hold a PEM private key"),
    ("GITHUB_PRIVATE_KEY", PUBLIC, "GITHUB_PRIVATE_KEY holds a public key or a certificate"),
    ("GITHUB_PRIVATE_KEY", DAMAGED, "GITHUB_PRIVATE_KEY holds a PEM private key that cannot be loaded: "
                                    "its base64 or its structure is damaged"),
    ("GITHUB_PRIVATE_KEY", pem(RSA, password=b"pass-hunter4"), "GITHUB_PRIVATE_KEY is encrypted with a passphrase"),
    ("GITHUB_PRIVATE_KEY", pem(ec.generate_private_key(ec.SECP256R1())),
     "GITHUB_PRIVATE_KEY holds a EC key; GitHub App keys are RSA"),
    ("GITHUB_API_URL", "ghe.example.com/api/v3", "GITHUB_API_URL must be an http(s) URL"),
    ("GITHUB_API_URL", "ftp://ghe.example.com/api/v3", "GITHUB_API_URL must be an http(s) URL"),
    ("GITHUB_API_URL", "https:///api/v3", "GITHUB_API_URL must be an http(s) URL"),
    ("GITHUB_API_URL", "https://ghe.example.com:99999/api/v3", "GITHUB_API_URL must be an http(s) URL"),
    ("GITHUB_API_URL", "https://ghe.example.com/api/v3?token=x", "GITHUB_API_URL must be an http(s) URL"),
    ("GITHUB_API_URL", "https://user:pw@ghe.example.com/api/v3", "GITHUB_API_URL must be an http(s) URL"),
    ("PORT", "eighty", BAD_PORT),
    ("PORT", "70000", BAD_PORT),
    ("PORT", "0", BAD_PORT),
]


@pytest.mark.parametrize("key, value, expected", MALFORMED, ids=[f"{k}={i}" for i, (k, _v, _e) in enumerate(MALFORMED)])
def test_malformed_setting_is_named_without_its_value(key, value, expected):
    (problem,) = problems_of({**BASE, key: value})
    assert problem.startswith(expected), problem
    for secret in {value, *value.strip().splitlines()} - {""}:
        assert secret not in problem
    assert read({**BASE, key: value}).missing == ()
    if key == "GITHUB_API_URL":
        assert problem == BAD_URL


@pytest.mark.parametrize("make, expected", [
    (lambda tmp: tmp / "absent.pem", "GITHUB_PRIVATE_KEY_PATH cannot be read: no such file or directory"),
    (lambda tmp: tmp, "GITHUB_PRIVATE_KEY_PATH cannot be read: is a directory"),
    (lambda tmp: _write(tmp / "binary.pem", b"\xff\xfe\x00key"), "GITHUB_PRIVATE_KEY_PATH is not a text file"),
    (lambda tmp: _write(tmp / "empty.pem", b""), "GITHUB_PRIVATE_KEY_PATH does not hold a PEM private key"),
    (lambda tmp: _write(tmp / "damaged.pem", DAMAGED.encode()),
     "GITHUB_PRIVATE_KEY_PATH holds a PEM private key that cannot be loaded"),
])
def test_unreadable_or_malformed_key_file(tmp_path, make, expected):
    path = make(tmp_path)
    env = {k: v for k, v in BASE.items() if k != "GITHUB_PRIVATE_KEY"}
    (problem,) = problems_of({**env, "GITHUB_PRIVATE_KEY_PATH": str(path)})
    assert problem.startswith(expected), problem
    assert str(tmp_path) not in problem


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


def test_every_problem_of_settings_and_queue_is_named_in_one_message():
    env = {"GITHUB_APP_ID": "abc", "GITHUB_PRIVATE_KEY": "garbage", "GITHUB_API_URL": "nope",
           "PORT": "x", "QUEUE_WORKERS": "many", "SCHEMA_REVIEW_RETRY_BACKOFF": "-1"}
    with pytest.raises(SettingsError) as caught:
        read_environment(env)
    message = str(caught.value)
    assert message.startswith("schema-review cannot start: 7 settings are missing or malformed")
    named = ["GITHUB_WEBHOOK_SECRET is missing", "GITHUB_APP_ID must be", "GITHUB_PRIVATE_KEY does not hold",
             "GITHUB_API_URL must be", "PORT must be", "QUEUE_WORKERS must be a number",
             "SCHEMA_REVIEW_RETRY_BACKOFF must not be negative"]
    assert [line.removeprefix("  - ").split(" ")[0] for line in message.splitlines()[1:]] == \
        [n.split(" ")[0] for n in named]
    assert all(n in message for n in named)
    assert all(value not in message for value in ("abc", "garbage", "nope", "many"))


def test_a_complete_environment_reads_both():
    settings, runtime = read_environment({**BASE, "QUEUE_WORKERS": "2"})
    assert settings.app_id == "42" and runtime.workers == 2
