"""The repository's .schema-review.yml (file, schema, _extends, globs) and the App's own settings
from the environment and .env. Imports only ambient."""
