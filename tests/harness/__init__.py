"""Driving the real App (gunicorn, bot.worker, redis-server) against the local GitHub emulator."""
