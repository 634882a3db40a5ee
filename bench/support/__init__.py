"""What the benchmarks with real services share: their private PostgreSQL database and Redis DB (``stores``), the
servers and workers they start and stop (``processes``), readings of processes from ``/proc`` (``readings``), the
HTTP and websocket clients that load the servers (``clients``), the scorekeepers' chalk entries (``entries``) and
the options and signals of their command lines (``command``).

Nothing here imports Django at module level: a benchmark points the environment at its services first.
"""
