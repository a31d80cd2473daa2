"""The benchmark suite: ``python -m bench.run`` (or ``make bench``); see bench/README.md."""
