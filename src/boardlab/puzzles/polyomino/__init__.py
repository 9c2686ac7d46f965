"""Polyomino packing puzzles (Triplex and kin): shapes, solver, levels, generator."""
