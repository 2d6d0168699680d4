"""The package version, apart from the package so that any module can read it without
importing the notebook API (simstats/__init__.py)."""

__version__ = "0.1.0"
