"""The solving methods, one module each, all with ``solve(deck, rules, budget) -> Solution``.

``construct`` (the forced course and the built line), ``course`` (value-level
search), ``sat`` (CNF of the pairing choices) and ``dfs`` (card-level search).
The route chooser is :mod:`kcsolve.patience.solve.route`.
"""
