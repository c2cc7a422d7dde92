"""Reserved for DESIGN.md's plan layer (arrives with later issues)."""
