"""`llm-sizer mcp`: LLM Sizer's answers as tools of a Model Context Protocol server, for agents."""
