"""Benchmarks (`make bench`), not tests: see bench/run.py."""
