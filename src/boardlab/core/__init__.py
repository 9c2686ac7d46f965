"""Core: the game protocol, boards, moves and the move language."""
