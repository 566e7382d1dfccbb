"""``python -m kcsolve``: the same as the ``kcsolve`` command."""

from kcsolve.cli import main

main()
