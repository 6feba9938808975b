"""Reference for the start-up benchmark: the smallest useful Typer app, two commands and
nothing else. ``meks`` start-up is measured against this."""

import typer

app = typer.Typer()


@app.command()
def hello(name: str) -> None:
    """Say hello."""
    typer.echo(f"Hello {name}")


@app.command()
def goodbye(name: str) -> None:
    """Say goodbye."""
    typer.echo(f"Goodbye {name}")


if __name__ == "__main__":
    app()
