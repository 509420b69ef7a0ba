"""The WSGI entry point for gunicorn (Procfile: web: gunicorn app:app)."""
from bot.web import create_app

app = create_app()
