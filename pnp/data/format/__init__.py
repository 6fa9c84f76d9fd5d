"""The database format: typed dataclasses (the one description of it), their JSON Schema,
element kinds, the colour maths, limits and the error type."""
