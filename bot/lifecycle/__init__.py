"""Evolution as a process: deprecation and promotion windows, migrations in flight, the schema
elements and history stamps they share. May import config and ambient."""
