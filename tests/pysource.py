"""ast.parse for the tests that read the project's source.

CPython 3.11.7 (the machines' python3) keeps the AST constructor's recursion depth in
interpreter-wide state: a parse in another thread at the same moment (Python 3.11's
tracebacks parse source to place their carets, so any thread that logs an exception
parses) makes this one fail with "SystemError: AST constructor recursion depth mismatch"
(CPython gh-106905, fixed in 3.11.8 and 3.12). The source is fine: parse it again.
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
