"""The boardlab command line."""
