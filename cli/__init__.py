"""The ``meks`` command line: Typer sub-apps, one per noun, and the views they print."""
