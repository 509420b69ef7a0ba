"""Differential runs on real schema histories: extraction, comparison with peers, the sample."""
