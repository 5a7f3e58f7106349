"""Guided lessons: lesson files, machine-checked claims, computed quizzes and the player state.

Upstream: no counterpart (teaching material about kube-scheduler v1.18.5).
"""
