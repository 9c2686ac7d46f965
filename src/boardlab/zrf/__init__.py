"""Zillions of Games rule files (ZRF): read, compile onto the move language, play."""
