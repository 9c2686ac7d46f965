"""The move language's IR is closed and every backend has a case for every node.

The nodes are the frozen dataclasses of :mod:`boardlab.core.ir`; the backends are the
reference interpreter (:mod:`boardlab.core.interpret`), the abstract run behind
``reach``/``reads`` (:mod:`boardlab.core.rules`) and the numba kernel's check and writer
(:mod:`boardlab.core.kernel`). Each backend dispatches on the node's type through its
own table, so a node missing from a table is a node that backend cannot handle.
"""

from __future__ import annotations

import dataclasses

import pytest

from boardlab.core import interpret, ir, kernel, rules
from boardlab.core.kernel import checks as kchecks
from boardlab.core.kernel import writer as kwriter


def _nodes(base: type) -> list[type]:
    return [v for v in vars(ir).values()
            if isinstance(v, type) and issubclass(v, base) and v is not base]


TESTS = _nodes(ir.Test)
INSTRUCTIONS = _nodes(ir.Instruction)

#: Each backend's tables: (name, table, the node types it must cover).
BACKENDS = [
    ("interpreter tests", interpret.TESTS, TESTS),
    ("interpreter instructions", interpret.RUN, INSTRUCTIONS),
    ("abstract run", rules.REACH_CASES, INSTRUCTIONS),
    ("kernel check of tests", kchecks._CHECK_TEST, TESTS),
    ("kernel check of instructions", kchecks._CHECK_INSTRUCTION, INSTRUCTIONS),
    # A Native test is refused by the check, with its reason: the writer never sees one.
    ("kernel writer of tests", kwriter._Writer.TEST, [t for t in TESTS if t is not ir.Native]),
    ("kernel writer of instructions", kwriter._Writer.WRITE, INSTRUCTIONS),
]


def missing_cases(nodes: list[type], table: object) -> list[str]:
    """The node types of ``nodes`` that ``table`` has no case for."""
    return [node.__name__ for node in nodes if node not in table]


def test_the_ir_is_a_closed_set_of_frozen_dataclasses_without_behaviour():
    assert len(TESTS) >= 30 and len(INSTRUCTIONS) >= 25
    for node in TESTS + INSTRUCTIONS:
        assert dataclasses.is_dataclass(node), node
        assert node.__dataclass_params__.frozen, node
        for cls in node.__mro__[:-1]:  # the node and its IR bases: no behaviour
            assert "run" not in vars(cls) and "__call__" not in vars(cls), node
    # Every node is public in the IR's module and re-exported by the language's module.
    for node in TESTS + INSTRUCTIONS:
        assert node.__name__ in ir.__all__
        assert getattr(rules, node.__name__) is node


@pytest.mark.parametrize(("backend", "table", "nodes"), BACKENDS, ids=[b[0] for b in BACKENDS])
def test_every_node_has_a_case_in_every_backend(backend, table, nodes):
    assert missing_cases(nodes, table) == [], backend
    # No backend keeps a case for something that is not a node of the IR.
    assert set(table) <= set(TESTS + INSTRUCTIONS), backend


def test_a_node_without_a_case_is_found_and_refused():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Teleport(ir.Instruction):
        cell: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Lucky(ir.Test):
        pass

    for _, table, nodes in BACKENDS:
        kind = ir.Test if nodes and issubclass(nodes[0], ir.Test) else ir.Instruction
        new = Lucky if kind is ir.Test else Teleport
        assert missing_cases([new], table) == [new.__name__]
    with pytest.raises(TypeError, match="not an instruction"):
        interpret.run(Teleport(0), None, [])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a test"):
        interpret.test(Lucky(), None)  # type: ignore[arg-type]
    with pytest.raises(kernel.Unsupported, match="instruction Teleport"):
        kchecks._check_program((Teleport(0),), None)
    with pytest.raises(kernel.Unsupported, match="predicate Lucky"):
        kchecks._check_predicate(Lucky(), None)


def test_python_in_the_rules_is_an_explicit_native_test_the_kernel_refuses_by_its_reason():
    native = ir.Native(lambda c: True, "a rule the language cannot say")
    with pytest.raises(kernel.Unsupported, match="a rule the language cannot say"):
        kchecks._check_predicate(native, None)
    with pytest.raises(TypeError, match="wrapped in ir.Native"):
        interpret.test(lambda c: True, None)  # type: ignore[arg-type]
