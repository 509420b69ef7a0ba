"""Tests of the JSON Schema rules beyond the data-driven cases."""
