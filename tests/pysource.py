"""ast.parse for the tests that read the project's source.

CPython 3.11's AST constructor keeps its recursion depth in interpreter-wide state, shared
by the process's threads: a parse in another thread at the same moment (Python 3.11's
tracebacks parse source to place their carets, so a thread that logs an exception parses)
can make this one fail with "SystemError: AST constructor recursion depth mismatch" (seen
twice in CI on 3.11.7; reported upstream as CPython gh-106905 and by other projects). The
source is fine: parse it again.
"""

from __future__ import annotations

import ast
import time

TRIES = 5


def parse_python(source: str, filename: str = "<unknown>") -> ast.Module:
    for attempt in range(TRIES):
        try:
            return ast.parse(source, filename)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error) or attempt == TRIES - 1:
                raise
            time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")
