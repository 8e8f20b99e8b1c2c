"""What the tests and ``python -m bot bench`` stand the bot on: Discord faked at the
HTTP transport (``discord_fake``). Nothing in the bot imports it (lint-imports)."""
