"""Module tagging: the modules a PR's own tags name (`tags`), the per-repository classifier
that fills in the rest (`features`, `classifier`, `model_store`, `evaluation`), and the
cross-cutting themes (`themes`).
"""
