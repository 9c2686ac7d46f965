"""Hypothesis strategies of the move language's tests shared by several test modules."""

from __future__ import annotations

from hypothesis import strategies as st

from boardlab.core import rules as r


def predicate_trees(leaves, cells, directions):
    """Random not/and/or trees of ``leaves``, read a step away or at a cell too."""
    return st.recursive(leaves, lambda inner: st.one_of(
        st.builds(r.not_, inner),
        st.builds(lambda ps: r.all_of(*ps), st.lists(inner, max_size=3)),
        st.builds(lambda ps: r.any_of(*ps), st.lists(inner, max_size=3)),
        st.builds(r.at_step, inner, directions),
        st.builds(r.at_cell, inner, cells),
    ), max_leaves=4)
