"""Persistence: the schema (``models``), the connection (``db``) and the queries."""
