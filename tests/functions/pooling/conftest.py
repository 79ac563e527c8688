import os
import sys

# Lets the test modules here import the shared helpers (roi_ref.py).
sys.path.insert(0, os.path.dirname(__file__))
