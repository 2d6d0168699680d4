"""Reporting: a run's summary tables and comparisons (summary, compare), its figures (plots) and
pages (page, replay_page), and a position as text (render). Nothing is imported here: tables
and plots load no compiled code."""
