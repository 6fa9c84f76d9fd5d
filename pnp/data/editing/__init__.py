"""Writing a change back into the file a card is defined in, touching nothing else.

`yamltext` edits YAML text in place (one value, key or list item), `rows` one row of a CSV
or XLSX card list, `cards` finds where a card is written and returns that file's new bytes.
May import pnp.data.format, the spreadsheet reader of pnp.data.reading and PyYAML (openpyxl only
for a workbook); writes no file itself.
"""
