"""The review as one JSON object for scripts: the conclusion, the files, the findings."""
from __future__ import annotations

from bot.render.outcome import unique


def to_json(result) -> dict:
    """Findings in `rules`' JSON shape (plus their fingerprints), once each, file by file."""
    files, findings = [], []
    for file in result.files:
        files.append({"path": file.path, "base_path": file.base_path, "format": file.format.value,
                      "compatibility": file.mode.value + ("_transitive" if file.transitive else ""),
                      "reviewed": file.reviewed, "problem": file.problem,
                      "removed": file.removed, "notes": list(file.notes)})
        findings += [{**finding.to_json(), "fingerprint": value}
                     for finding, value in unique(file)]
    return {"conclusion": result.conclusion.value, "title": result.title, "files": files,
            "findings": findings}
