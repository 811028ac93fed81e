"""One module per ./lab subcommand."""
