"""Police Precinct (Common Man Games, 2013): rules, content and city."""
