"""The pages that combine the domains: a competition's setup (format, entries, teams, the fixture list set by hand),
its public page, its standings with each team's page, the players' ratings and profiles, and a match's online table
(the fixture and its seats' links). The top layer of the apps: it may import every domain app, none imports it.
The domain apps keep their services, selectors and the pages of their own domain."""
