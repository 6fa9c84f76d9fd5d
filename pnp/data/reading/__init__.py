"""Reading projects: safe YAML with line numbers, spreadsheets, variant databases, loading a
game and checking it whole. The top of the input stage: may import every other room of it."""
