"""The console's flow, UI-neutral: a stack of screens over the engine and the saved data.

Screens answer actions (:mod:`pyramid.actions`) and describe themselves as views
(:mod:`pyramid.view`); they never import pygame, ``display`` or ``input``.
"""
