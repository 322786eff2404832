"""Business logic between the web layer and the rules engines (design.md §1)."""
