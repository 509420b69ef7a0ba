"""The App's own web pages: registration from the manifest (no credentials yet) and the status page."""
