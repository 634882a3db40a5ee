"""The live pages benchmark's parts (``bench/bench_live.py``): the seeded league, the open pages and scorekeepers,
the reading of the pages' renderings and the timing of each hand to every page that shows it."""
