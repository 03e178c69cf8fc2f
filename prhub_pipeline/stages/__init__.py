"""Stages: each runs one step of the flow for a repository and a range of weeks.

They join sources, warehouse, modelling and reporting into plain functions with typed
summaries; the Dagster assets in `defs/` only call them and turn the summaries into metadata.
"""
