"""Agent Tool Systems course library."""
