"""Shared work kept fair: worker processes, a few jobs at once with one at a time per player,
fair-use limits per player and server, reading attached files, and the background loops'
look-sleep-wake."""
