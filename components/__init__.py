"""Dash layout pieces and pure figure builders of Procrustes Lab (the libraries know nothing of Dash)."""
