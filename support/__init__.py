"""What the tests and the benchmarks share: random legal games, a phone's entry on Django's test client, the
site as in production, the headless Chromium. It imports the product and ``deploy``, never ``bench`` or
``tests`` (``tests/test_layers.py``)."""
