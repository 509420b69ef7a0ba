"""PyGithub's HTTP connections, reading the environment's proxy and CA settings once per host.

requests reads them on every request (`Session.merge_environment_settings`: every variable of
the environment scanned twice for proxies, then the CA bundle variables), the largest single
cost of a warm review in the worker's thread (bench/review_cpu.py: ~19% of its CPU, more than
PyGithub). The App talks to one host, whose settings do not change while it runs: they are read
the first time a connection goes there and kept. Everything else is requests' and PyGithub's.
"""
from __future__ import annotations

import os
import threading
from urllib.parse import urlsplit

import requests
import requests.utils
from github.Requester import HTTPRequestsConnectionClass, HTTPSRequestsConnectionClass, Requester
from requests.sessions import merge_setting

# (scheme, host and port) -> (the environment's proxies for it, the CA bundle it names or None)
_read: dict[tuple[str, str], tuple[dict, str | None]] = {}
_lock = threading.Lock()


def _environment(url: str) -> tuple[dict, str | None]:
    origin = urlsplit(url)[:2]
    with _lock:
        if origin not in _read:
            _read[origin] = (requests.utils.get_environ_proxies(url, no_proxy=None),
                             os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE"))
        return _read[origin]


class EnvironmentOnceSession(requests.Session):
    """requests' own merge of the environment into a request's settings, the reading memoized."""

    def merge_environment_settings(self, url, proxies, stream, verify, cert):
        if not self.trust_env or (proxies or {}).get("no_proxy") is not None:
            return super().merge_environment_settings(url, proxies, stream, verify, cert)
        env_proxies, bundle = _environment(url)
        if proxies is not None:
            for key, value in env_proxies.items():
                proxies.setdefault(key, value)
        if verify is True or verify is None:
            verify = bundle or verify
        return {"proxies": merge_setting(proxies, self.proxies), "stream": merge_setting(stream, self.stream),
                "verify": merge_setting(verify, self.verify), "cert": merge_setting(cert, self.cert)}


def _with_session(base):
    class Connection(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            session = EnvironmentOnceSession()
            session.auth = self.session.auth  # PyGithub's no-op auth: no .netrc fallback
            for prefix, adapter in self.session.adapters.items():
                session.mount(prefix, adapter)  # its retry policy and pool size
            self.session.close()
            self.session = session

    Connection.__name__ = Connection.__qualname__ = f"EnvironmentOnce{base.__name__}"
    return Connection


HTTPConnection = _with_session(HTTPRequestsConnectionClass)
HTTPSConnection = _with_session(HTTPSRequestsConnectionClass)


def install() -> None:
    """Every PyGithub client of this process connects through these (PyGithub's own hook)."""
    Requester.injectConnectionClasses(HTTPConnection, HTTPSConnection)
