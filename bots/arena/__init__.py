"""Tournaments between bots: seeded, seat-balanced arenas and seat substitution, and their command.

A layer above the bots (it builds them by name through :mod:`bots.registry`); the engine under
``solver/`` never imports it.
"""
