"""Good Cop Bad Cop: rules, Equipment content, codec, views and determinization (see ``rules``)."""
