"""Arbiter's rules: pure Python engines, one per format, behind one contract.

Nothing here imports Django, touches a database, reads the clock or uses the global random
generator. See rules/contract.py for the types and rules/registry.py for the engines.
"""
