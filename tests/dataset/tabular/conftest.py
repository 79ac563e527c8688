import os
import sys

# Lets the test modules here import the recording dataset (tabular_recorder).
sys.path.insert(0, os.path.dirname(__file__))
