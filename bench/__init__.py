"""Benchmarks run by `make bench` (python -m bench). They print tables; they never fail a build."""
