"""Print the number of inputs each fuzz target ran."""
from .counting import RAN


def pytest_terminal_summary(terminalreporter):
    if RAN:
        total = sum(RAN.values())
        terminalreporter.write_line(f"fuzz inputs run: {total} " + ", ".join(f"{k}={v}" for k, v in sorted(RAN.items())))
