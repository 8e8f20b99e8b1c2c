"""The public web pages (``WEB_ADDRESS``): beside the chat adapters, reading through the
services and the store, scoped by server (``bot.services.web`` holds the switches)."""

from bot.web.boards import Boards
from bot.web.live import Hub
from bot.web.server import WebServer

__all__ = ["Boards", "Hub", "WebServer"]
