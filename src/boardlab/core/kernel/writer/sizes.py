"""Bounds of the kernel's tables that several parts of the writer size their scratch by."""

from __future__ import annotations

#: Most attackers of a position's protected pieces guard lists (more: every move is
#: looked at in full).
_ATTACKERS = 4096


#: The counts in hand whose keys a kernel holds (more count as the last).
_HAND_KEYS = 256
