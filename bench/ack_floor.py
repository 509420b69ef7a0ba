"""The acknowledgement floor: a WSGI app that reads a delivery and answers 202, nothing else.

bench/load.py serves it with the App's own gunicorn settings (gthread, WEB_THREADS threads) and
sends it the same deliveries at the same rate, so the App's ack latency can be read against
what this machine, gunicorn and the sender give an answer that does no work at all.
"""


def app(environ, start_response):
    environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    body = b'{"accepted": true}'
    start_response("202 Accepted", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
