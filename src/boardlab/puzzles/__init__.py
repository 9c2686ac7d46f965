"""Puzzles, one package per kind."""
