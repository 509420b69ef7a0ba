"""Avro-specific tests: conformance, differential, bad input."""
