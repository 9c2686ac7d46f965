"""Games, one module per family; each registers itself."""
