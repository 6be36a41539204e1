"""The engine: Pyramid's cards, deals, rules, boards and solver, and the Pyramids duel.

Plain data and functions over the standard library. Nothing here imports the
console, the saved data, the system glue, ``display``, ``input``, pygame or a
hardware library (``tests/test_layers.py`` checks it), so every rule can be
tested, benchmarked and reused without a screen. See docs/rules.md.
"""
