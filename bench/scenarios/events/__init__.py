"""The events benchmark's parts (``bench/bench_events.py``): the competitions played online and their players
(``seed``: a Swiss of pairs, a knockout of teams), each player's client — its table found on Play → Your tables, its
seat played over the socket (``player``) —, the run that waits for the competitions to end (``drive``), what the
database holds afterwards (``readback``: rounds, tables, the stored hands and the standings recomputed from them;
``team_readback``: the team matches of the knockout decided again from their tables' hands, its standings and its
winner) and the pure sums of it (``timeline``: the delays between rounds, the tables stuck, the standings compared)."""
