"""simstats: plays two-deck patience games by the million under pluggable policies.

The notebook-facing API grows here; the command line (cli.py) uses the same functions.
"""

__version__ = "0.1.0"
