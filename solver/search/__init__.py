"""Reserved for DESIGN.md's search layer (arrives with later issues)."""
