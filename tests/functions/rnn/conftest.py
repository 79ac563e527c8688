import os
import sys

# Lets the test modules here import the shared helpers (n_step_ref.py).
sys.path.insert(0, os.path.dirname(__file__))
