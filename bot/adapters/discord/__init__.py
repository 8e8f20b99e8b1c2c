"""The Discord adapter: the command tree, buttons and typed moves, translated to the
commands and services and back. Built by ``bot.app``."""
