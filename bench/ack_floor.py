"""The acknowledgement floor: an empty Flask answer, which reads a delivery and answers 202.

bench/load.py serves it with the App's own gunicorn settings (gthread, WEB_THREADS threads) and
sends it the same deliveries at the same rate, in the same run, so the App's ack latency can be
read against what this machine, gunicorn, Flask and the sender give an answer that does no work
(issue 24: the App's p99 at most 2x this one's under the same load).
"""
from flask import Flask, jsonify, request

app = Flask("ack_floor")


@app.post("/webhook")
def webhook():
    request.get_data(cache=False)
    return jsonify({"accepted": True}), 202


@app.get("/")
def ready():  # bench/load.py waits for this before sending
    return "", 200
