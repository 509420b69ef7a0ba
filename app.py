"""The WSGI entry point for gunicorn (Procfile: web: gunicorn app:app)."""
import sys

from bot.config.settings import SettingsError
from bot.web.app import create_app

# gunicorn's "App failed to load" status: its arbiter stops instead of booting the worker again.
APP_LOAD_ERROR = 4

try:
    app = create_app()
except SettingsError as error:
    # One message naming every missing or malformed setting (never a value), and no traceback.
    print(error, file=sys.stderr, flush=True)
    raise SystemExit(APP_LOAD_ERROR) from None
