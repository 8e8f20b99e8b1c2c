"""The vocabulary every layer shares: requests and responses, refusals, enums,
button ids, time control and clocks. Imports nothing else of the bot."""
