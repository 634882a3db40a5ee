"""The online tables benchmark's parts (``bench/bench_tables.py``): the tables' seats and the run that drives them."""
