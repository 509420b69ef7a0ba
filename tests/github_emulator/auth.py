"""The App's RSA key, App JWT verification and installation access tokens with an expiry."""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from functools import lru_cache

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

# GitHub's answers when credentials do not hold (it says "Bad credentials" for any bad token).
BAD_CREDENTIALS = "Bad credentials"
BAD_JWT = "A JSON web token could not be decoded"
EXPIRED_JWT = ("'Expiration time' claim ('exp') must be a numeric value representing the future "
               "time at which the assertion expires")
WRONG_ISSUER = "Integration not found"
# GitHub refuses App JWTs that live longer than ten minutes.
MAX_JWT_LIFETIME = 600
# Clock drift GitHub tolerates on `iat`; PyGithub backdates iat by 60 s for the same reason.
JWT_LEEWAY = 60


class AuthError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class Token:
    value: str
    installation_id: int
    expires_at: float
    permissions: dict
    repositories: list[str] | None
    revoked: bool = False


class AppCredentials:
    """The App's identity: id, RSA key pair, and the installation tokens it has been issued."""

    def __init__(self, app_id: int, *, token_ttl: float, clock=time.time):
        self.app_id = app_id
        self.token_ttl = token_ttl
        self.clock = clock
        self.private_key_pem, self._public_key = _key_pair()
        self.tokens: dict[str, Token] = {}

    def verify_jwt(self, token: str) -> None:
        """Raise AuthError unless `token` is an RS256 JWT of this App, signed by its key, unexpired."""
        try:
            claims = jwt.decode(token, self._public_key, algorithms=["RS256"],
                                options={"require": ["iat", "exp", "iss"]}, leeway=JWT_LEEWAY)
        except jwt.ExpiredSignatureError as exc:
            raise AuthError(EXPIRED_JWT) from exc
        except jwt.PyJWTError as exc:
            raise AuthError(BAD_JWT) from exc
        if str(claims["iss"]) != str(self.app_id):
            raise AuthError(WRONG_ISSUER)
        if claims["exp"] - claims["iat"] > MAX_JWT_LIFETIME + JWT_LEEWAY:
            raise AuthError(EXPIRED_JWT)

    def issue(self, installation_id: int, *, permissions: dict | None = None,
              repositories: list[str] | None = None) -> Token:
        token = Token("ghs_" + secrets.token_urlsafe(27)[:36], installation_id,
                      self.clock() + self.token_ttl, permissions or {}, repositories)
        self.tokens[token.value] = token
        return token

    def check_token(self, value: str) -> Token:
        token = self.tokens.get(value)
        if token is None or token.revoked or token.expires_at <= self.clock():
            raise AuthError(BAD_CREDENTIALS)
        return token

    def expire_all(self) -> None:
        for token in self.tokens.values():
            token.revoked = True


@lru_cache(maxsize=1)
def _key_pair():
    """One RSA key per test process: generating 2048-bit keys costs ~0.1 s each."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                            serialization.NoEncryption()).decode()
    return pem, key.public_key()


def bearer(header: str | None) -> tuple[str, str] | None:
    """("token"|"bearer", credential) from an Authorization header, or None."""
    if not header or " " not in header:
        return None
    scheme, _, value = header.partition(" ")
    return scheme.lower(), value.strip()


def looks_like_jwt(value: str) -> bool:
    return value.count(".") == 2 and value.startswith("eyJ")
