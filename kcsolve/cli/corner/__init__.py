"""Kings Corner's commands, one module per concern as the patience's are: the group, hands, sim, play, records.

Importing this package registers every ``corner`` subcommand on the group
(``base.COMMAND_MODULES`` imports it when ``corner`` is asked for).
"""

from __future__ import annotations

from kcsolve.cli.corner import hands, play, records, sim
from kcsolve.cli.corner.group import corner

COMMANDS = (hands, play, records, sim)  # imported for the commands they register on the group
__all__ = ["COMMANDS", "corner"]
