"""Adapters translate between a platform and the commands and services; no rule lives here."""
