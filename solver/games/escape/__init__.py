"""Escape Plan (Eagle-Gryphon Games, 2019): city, content, boards and rules (issue 23)."""
