"""The team-match operations that ``draw`` and ``importer`` import under this name, re-exported from
``games.teams``, where they live. The same names are on ``games.services``, the app's public surface: this
module goes once its callers import them from there."""

from games.teams import create_team_match, record_team_totals, set_team_tables

__all__ = ["create_team_match", "record_team_totals", "set_team_tables"]
