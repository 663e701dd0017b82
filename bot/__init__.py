"""LLM Sizer's conversation layer: parsing, rendering, and the terminal and Telegram front ends."""

__version__ = "0.1.0"
