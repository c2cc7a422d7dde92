"""Hidden Pass, the toy game: its rules and its spec (as ``solver/games/<name>/``)."""
