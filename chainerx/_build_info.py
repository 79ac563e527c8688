"""How this ChainerX was built: without its C++ core."""

build_chainerx = False
