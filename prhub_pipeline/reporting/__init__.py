"""Reporting: the weekly report context, rendering and charts."""
