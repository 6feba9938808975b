"""The Meks & Mercs game itself: catalog, construction rules, dice and (later) battles.

This package is pure: it reads nothing but its own package data, touches no database and
no terminal.
"""

__version__ = "0.1.0"
