"""Output: card sheets, checklists, boards, booklets, statistics reports, exports, publishing, workers.

May import every stage below it (data, rules, draw, geometry, engines); never the build or the CLI.
"""
