"""Compiled kernels built from ``ext/*.pyx`` by setup.py; each has a pure-Python twin."""
