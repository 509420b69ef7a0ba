"""`python -m bot review|lifecycle`: the local review's command line, bot/local/main.py."""
import sys

from bot.local.main import main

if __name__ == "__main__":
    sys.exit(main())
