"""Sources: each yields validated records for a time window. No Dagster, no DuckDB."""
