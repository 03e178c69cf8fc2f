"""Modelling: module tags, themes, the classifier, importance and risks."""
