__version__ = '8.0.0'
