"""Planning (DESIGN.md section 5): :mod:`.lineup_plan`, the optimal LineUp plan under a memory model
(an MDP solved by value iteration). OR-Tools route planning for Escape Plan arrives with its issue."""
