"""Fuzzing: the webhook endpoint and every format's parser and differ never raise or hang."""
