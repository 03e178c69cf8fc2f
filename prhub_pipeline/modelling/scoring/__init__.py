"""How much a PR matters and what could go wrong with it: importance scores (`importance`),
risk flags (`risks`) and the evidence they read: settings and requirements a PR changed,
work it left open, fixes made again.
"""
