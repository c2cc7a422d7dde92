"""Police 07 ("Where is Dr. Factor?"): rules, board, codec and views."""
