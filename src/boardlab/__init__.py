"""boardlab: engine, toolkit and web app for abstract board games and grid puzzles.

>>> import boardlab
>>> state = boardlab.load("tic-tac-toe").initial_state()
>>> len(state.legal_moves())
9
"""

from boardlab.core.game import Game, Option, State, perft
from boardlab.core.move import Move
from boardlab.core.registry import load, names, register

__all__ = ["Game", "Move", "Option", "State", "load", "names", "perft", "register"]
__version__ = "0.1.0"
