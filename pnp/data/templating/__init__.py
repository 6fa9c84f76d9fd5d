"""Templates in databases: the limited jinja2 sandbox, and rendering slots and elements for one card.
Imports the format and the store; jinja2 itself only when something is compiled."""
