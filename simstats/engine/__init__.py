"""The rules engine: pure, compiled rules over small integer arrays (see docs/rules.md).

Bump RULES_VERSION when the engine's behaviour changes, not for refactors or speed-ups.
"""

RULES_VERSION = 1
