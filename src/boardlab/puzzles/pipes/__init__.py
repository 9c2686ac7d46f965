"""Pipe puzzles (Plumber): a grid of straight and elbow pipe segments, each carrying a
letter; every path of water from the tap to the drain spells a code.

Rules and the level file format: :doc:`/pipes` (from an article about the city quest
game "Водопровод"). ``level.py`` holds the level and its text form,
``solve.py`` enumerates every solution lazily.
"""
