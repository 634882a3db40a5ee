"""The web benchmark's parts (``bench/bench_web.py``): hand entry and settling, the standings page, worker memory."""
