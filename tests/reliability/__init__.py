"""Reliability: faults, duplicates, supersede, crashes, recovery, Redis mode; against the emulator."""
