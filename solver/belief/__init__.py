"""Belief tracking: possible-location sets (Police 07) and Bayesian role inference."""
