"""``python -m kcsolve``: the same as the ``kcsolve`` command."""

from .cli import main

main()
