"""Arrays that compiled code passes around without reference counting.

Numba counts references to an array it passes to a function it does not inline: each
call increments and decrements the array's count with atomic instructions (``NRT_incref``
and ``NRT_decref``). A game kernel's ply calls a dozen small functions on the same two or
three arrays, and profiling its playouts (perf, Connect Four in the move language) put
60 % of the time in those two functions. An array whose ``meminfo`` is null is not counted
(NRT skips a null pointer), so the kernel's entry points take their arrays through
:func:`unmanaged` once and every call below them passes views that cost nothing to pass.

This is safe where the caller (Python) holds the arrays for the whole call and no view
made from them is kept after it returns: the kernels return integers only.
"""

from __future__ import annotations

from typing import Any

from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def unmanaged(typingctx: Any, array: Any) -> Any:
    """The same array (data, shape and strides), with no meminfo or parent: numba
    counts no references to it. Only for arrays the caller keeps alive meanwhile."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        source = context.make_array(signature.args[0])(context, builder, args[0])
        out = context.make_array(signature.return_type)(context, builder)
        for field in ("data", "shape", "strides", "itemsize", "nitems"):
            setattr(out, field, getattr(source, field))
        out.meminfo = cgutils.get_null_value(out.meminfo.type)
        out.parent = cgutils.get_null_value(out.parent.type)
        return out._getvalue()

    return array(array), codegen
