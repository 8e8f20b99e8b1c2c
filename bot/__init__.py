"""garnet's match host, store and chat adapters."""
