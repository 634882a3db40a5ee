"""The scenarios of the benchmarks with real services, a package per benchmark (``web``, ``tables``, ``live``): what
each one builds, drives and measures. The scripts ``bench/bench_<name>.py`` run them and print their figures."""
